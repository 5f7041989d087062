import {
  accountExportSchema,
  addUserRequestSchema,
  editUserRequestSchema,
  idParams,
  noContent,
  okResponseSchema,
  passwordChangeRequestSchema,
  profilePhotoRequestSchema,
  profileUpdateSchema,
  currentSessionResponse,
  userApprovalRequestSchema,
  userApprovalResponse,
  userDetailResponse,
  userListQuery,
  userListResponse,
  userResponse,
} from '@rideway/contract';
import type { AppContext } from '../../context';
import { actorOf } from '../../http/actor';
import { ALL, type RouteApp } from '../../http/routing';
import { SESSION_COOKIE } from '../accounts/sessions';
import { setApproval } from './approval';
import { userDetail } from './detail';
import { changePassword, exportAccount, exportFileName, removeProfilePhoto, setProfilePhoto } from './account';
import { updateMe } from './me';
import { addUser, deleteUser, editUser, listUsers } from './service';
import { userView } from './view';

const MANAGERS = ['admin', 'fleetadmin'] as const;

export function userRoutes(app: RouteApp, ctx: AppContext): void {
  app.get('/api/me', {
    config: { access: ALL },
    schema: { summary: 'The signed-in user', response: { 200: userResponse } },
  }, async (request) => ({ user: await userView(ctx.db, actorOf(request).user) }));

  // Issue 21 point 5: how the web app learns who is signed in; a visitor gets `{user: null}`, not a 401.
  app.get('/api/session', {
    config: { access: 'public' },
    schema: { summary: 'The signed-in user, or null for a visitor', response: { 200: currentSessionResponse } },
  }, async (request) => ({ user: request.actor ? await userView(ctx.db, request.actor.user) : null }));

  app.patch('/api/me', {
    config: { access: ALL },
    schema: { summary: 'Edit the own profile (section 5)', body: profileUpdateSchema, response: { 200: userResponse } },
  }, async (request) => ({ user: await updateMe(ctx, actorOf(request), request.body, request.sessionToken) }));

  // Issue 20 point 2: the own photo, password, data and (DELETE /api/users/:id below) account.
  app.put('/api/me/photo', {
    config: { access: ALL },
    schema: { summary: "Set the own photo (section 3's profile_image): a PNG, JPEG or WebP, checked by its bytes and stored as a 256 px square JPEG", body: profilePhotoRequestSchema, response: { 200: userResponse } },
  }, async (request) => ({ user: await setProfilePhoto(ctx, actorOf(request), request.body) }));

  app.delete('/api/me/photo', {
    config: { access: ALL },
    schema: { summary: 'Remove the own photo', response: { 200: userResponse } },
  }, async (request) => ({ user: await removeProfilePhoto(ctx, actorOf(request)) }));

  app.post('/api/me/password', {
    config: { access: ALL },
    schema: { summary: "Change the own password (the current one required when the account has one); the account's other sessions end", body: passwordChangeRequestSchema, response: { 200: okResponseSchema } },
  }, async (request) => {
    await changePassword(ctx, actorOf(request), request.body, request.sessionToken);
    return { ok: true as const };
  });

  app.get('/api/me/export', {
    config: { access: ALL },
    schema: { summary: 'Download the own data (profile, trips, wallet, chat messages written, saved places, notifications) as a JSON file', response: { 200: accountExportSchema } },
  }, async (request, reply) => {
    const data = await exportAccount(ctx, actorOf(request));
    return reply.header('content-disposition', `attachment; filename="${exportFileName(data.exportedAt)}"`).header('cache-control', 'private, no-store').send(data);
  });

  app.get('/api/users', {
    config: { access: MANAGERS },
    schema: { summary: 'Riders, drivers and fleet admins (a fleet admin: its drivers); `search` finds them by name, email or mobile (at most 100)', querystring: userListQuery, response: { 200: userListResponse } },
  }, async (request) => ({ users: await listUsers(ctx, actorOf(request), request.query) }));

  // Issue 20 point 6: one user's page, and approval or suspension with a reason.
  app.get('/api/users/:id/detail', {
    config: { access: MANAGERS },
    schema: { summary: "One user's profile, documents, trips, wallet, ratings and approval history (an admin: any user but an admin; a fleet admin: its own drivers)", params: idParams, response: { 200: userDetailResponse } },
  }, async (request) => userDetail(ctx, actorOf(request), request.params.id));

  app.post('/api/users/:id/approval', {
    config: { access: ['admin'] },
    schema: { summary: "Approve an account, or suspend it with the reason the user reads (its sessions end; a driver goes offline); a repeat changes nothing", params: idParams, body: userApprovalRequestSchema, response: { 200: userApprovalResponse } },
  }, async (request) => setApproval(ctx, actorOf(request), request.params.id, request.body));

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
    schema: { summary: 'Delete (anonymise) a user: refused during a trip or with money owed; bookings and ledger stay; deleting yourself signs you out', params: idParams, response: { 204: noContent } },
  }, async (request, reply) => {
    const { self } = await deleteUser(ctx, actorOf(request), request.params.id);
    if (self) void reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return reply.status(204).send(null);
  });
}
