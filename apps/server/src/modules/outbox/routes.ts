import { outboxIdParams, outboxMessageResponse, outboxQuerySchema, outboxResponse } from '@rideway/contract';
import type { AppContext } from '../../context';
import { actorOf } from '../../http/actor';
import { ADMIN, type RouteApp } from '../../http/routing';
import { listOutbox, retryMessage } from './service';

/** Admins read what left (or waits to leave) by mail, SMS and push: on one laptop, this is the inbox. */
export function outboxRoutes(app: RouteApp, ctx: AppContext): void {
  app.get('/api/outbox', {
    config: { access: ADMIN },
    schema: { summary: 'Mail, SMS and push messages, newest first (200 at most)', querystring: outboxQuerySchema, response: { 200: outboxResponse } },
  }, async (request) => ({ messages: await listOutbox(ctx.db, request.query) }));

  // Issue 19: a delivery failure is visible to admins, and an admin can send the message again.
  app.post('/api/outbox/:id/retry', {
    config: { access: ADMIN, writesEvents: false },
    schema: { summary: 'Send a failed message again: it waits for its relay once more', params: outboxIdParams, response: { 200: outboxMessageResponse } },
  }, async (request) => ({ message: await retryMessage(ctx, actorOf(request), request.params.id) }));
}
