import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { actorOf } from '../../http/actor';
import { SESSION_COOKIE } from '../auth/sessions';
import { addUser, deleteUser, editUser, listUsers, updateMe, userView } from './service';

type IdParams = { id: string };

export function userRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/me', async (request) => ({ user: await userView(ctx.db, actorOf(request).user) }));
  app.patch('/api/me', async (request) => ({ user: await updateMe(ctx, actorOf(request), request.body) }));

  app.get('/api/users', async (request) => ({ users: await listUsers(ctx, actorOf(request), (request.query as Record<string, unknown>).usertype) }));
  app.post('/api/users', async (request, reply) => reply.status(201).send({ user: await addUser(ctx, actorOf(request), request.body) }));
  app.patch<{ Params: IdParams }>('/api/users/:id', async (request) => ({
    user: await editUser(ctx, actorOf(request), request.params.id, request.body),
  }));
  app.delete<{ Params: IdParams }>('/api/users/:id', async (request, reply) => {
    const { self } = await deleteUser(ctx, actorOf(request), request.params.id);
    if (self) void reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return reply.status(204).send();
  });
}
