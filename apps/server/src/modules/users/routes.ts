import { addUserRequestSchema, editUserRequestSchema, profileUpdateSchema } from '@rideway/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { withBody, withSummary } from '../../http/docs';
import { actorOf } from '../../http/actor';
import { SESSION_COOKIE } from '../auth/sessions';
import { addUser, deleteUser, editUser, listUsers, updateMe, userView } from './service';

type IdParams = { id: string };

export function userRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/me', withSummary('The signed-in user'), async (request) => ({ user: await userView(ctx.db, actorOf(request).user) }));
  app.patch('/api/me', withBody('Edit the own profile (section 5)', profileUpdateSchema), async (request) => ({ user: await updateMe(ctx, actorOf(request), request.body) }));

  app.get('/api/users', withSummary('Riders, drivers and fleet admins (a fleet admin: its drivers); ?usertype='), async (request) => ({ users: await listUsers(ctx, actorOf(request), (request.query as Record<string, unknown>).usertype) }));
  app.post('/api/users', withBody('Add a user (a fleet admin: a driver of its own)', addUserRequestSchema), async (request, reply) => reply.status(201).send({ user: await addUser(ctx, actorOf(request), request.body) }));
  app.patch<{ Params: IdParams }>('/api/users/:id', withBody('Edit a managed user', editUserRequestSchema), async (request) => ({
    user: await editUser(ctx, actorOf(request), request.params.id, request.body),
  }));
  app.delete<{ Params: IdParams }>('/api/users/:id', withSummary('Delete a user; deleting yourself signs you out'), async (request, reply) => {
    const { self } = await deleteUser(ctx, actorOf(request), request.params.id);
    if (self) void reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return reply.status(204).send();
  });
}
