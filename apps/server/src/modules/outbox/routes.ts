import { outboxQuerySchema, outboxResponse } from '@rideway/contract';
import type { AppContext } from '../../context';
import { ADMIN, type RouteApp } from '../../http/routing';
import { listOutbox } from './service';

/** Admins read what left (or waits to leave) by mail, SMS and push: on one laptop, this is the inbox. */
export function outboxRoutes(app: RouteApp, ctx: AppContext): void {
  app.get('/api/outbox', {
    config: { access: ADMIN },
    schema: { summary: 'Mail, SMS and push messages, newest first (200 at most)', querystring: outboxQuerySchema, response: { 200: outboxResponse } },
  }, async (request) => ({ messages: await listOutbox(ctx.db, request.query) }));
}
