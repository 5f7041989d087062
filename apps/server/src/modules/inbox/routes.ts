import { inboxIdParams, inboxResponse, inboxUnreadResponse } from '@rideway/contract';
import type { AppContext } from '../../context';
import { actorOf } from '../../http/actor';
import type { RouteApp } from '../../http/routing';
import { listInbox, markInboxAllRead, markInboxRead } from './service';

/** Issue 19: each user's own inbox of push messages (the admin's sent notifications are /api/notifications). */
export function inboxRoutes(app: RouteApp, ctx: AppContext): void {
  app.get('/api/me/notifications', {
    config: { access: 'signedIn', writesEvents: false },
    schema: { summary: "The caller's newest push messages (50 at most), newest first, and the unread count", response: { 200: inboxResponse } },
  }, async (request) => listInbox(ctx, actorOf(request)));

  app.post('/api/me/notifications/read-all', {
    config: { access: 'signedIn', writesEvents: false },
    schema: { summary: "Mark every one of the caller's messages read", response: { 200: inboxUnreadResponse } },
  }, async (request) => markInboxAllRead(ctx, actorOf(request)));

  app.post('/api/me/notifications/:id/read', {
    config: { access: 'signedIn', writesEvents: false },
    schema: { summary: "Mark one of the caller's messages read", params: inboxIdParams, response: { 200: inboxUnreadResponse } },
  }, async (request) => markInboxRead(ctx, actorOf(request), request.params.id));
}
