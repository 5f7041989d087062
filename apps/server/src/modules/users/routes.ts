import { editUserRequestSchema, addUserRequestSchema, idParams, noContent, profileUpdateSchema, userListQuery, userListResponse, userResponse } from '@rideway/contract';
import type { AppContext } from '../../context';
import { actorOf } from '../../http/actor';
import { ALL, type RouteApp } from '../../http/routing';
import { SESSION_COOKIE } from '../accounts/sessions';
import { updateMe } from './me';
import { addUser, deleteUser, editUser, listUsers } from './service';
import { userView } from './view';

const MANAGERS = ['admin', 'fleetadmin'] as const;

export function userRoutes(app: RouteApp, ctx: AppContext): void {
  app.get('/api/me', {
    config: { access: ALL },
    schema: { summary: 'The signed-in user', response: { 200: userResponse } },
  }, async (request) => ({ user: await userView(ctx.db, actorOf(request).user) }));

  app.patch('/api/me', {
    config: { access: ALL },
    schema: { summary: 'Edit the own profile (section 5)', body: profileUpdateSchema, response: { 200: userResponse } },
  }, async (request) => ({ user: await updateMe(ctx, actorOf(request), request.body, request.sessionToken) }));

  app.get('/api/users', {
    config: { access: MANAGERS },
    schema: { summary: 'Riders, drivers and fleet admins (a fleet admin: its drivers)', querystring: userListQuery, response: { 200: userListResponse } },
  }, async (request) => ({ users: await listUsers(ctx, actorOf(request), request.query.usertype) }));

  app.post('/api/users', {
    config: { access: MANAGERS },
    schema: { summary: 'Add a user (a fleet admin: a driver of its own)', body: addUserRequestSchema, response: { 201: userResponse } },
  }, async (request, reply) => reply.status(201).send({ user: await addUser(ctx, actorOf(request), request.body) }));

  app.patch('/api/users/:id', {
    config: { access: MANAGERS },
    schema: { summary: "Edit a managed user (a fleet admin: its drivers' names and vehicles; contacts, bank details, approval and fleet are an admin's)", params: idParams, body: editUserRequestSchema, response: { 200: userResponse } },
  }, async (request) => ({ user: await editUser(ctx, actorOf(request), request.params.id, request.body, request.sessionToken) }));

  app.delete('/api/users/:id', {
    config: { access: ALL },
    schema: { summary: 'Delete a user; deleting yourself signs you out', params: idParams, response: { 204: noContent } },
  }, async (request, reply) => {
    const { self } = await deleteUser(ctx, actorOf(request), request.params.id);
    if (self) void reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return reply.status(204).send(null);
  });
}
