import { idParams, noContent, notificationDraftSchema, notificationListResponse, notificationResponse } from '@rideway/contract';
import type { AppContext } from '../../context';
import { ADMIN, type RouteApp } from '../../http/routing';
import { deleteNotification, listNotifications, sendNotification } from './service';

export function notificationRoutes(app: RouteApp, ctx: AppContext): void {
  app.get('/api/notifications', {
    config: { access: ADMIN },
    schema: { summary: 'Sent push notifications, newest first', response: { 200: notificationListResponse } },
  }, async () => ({ notifications: await listNotifications(ctx) }));

  app.post('/api/notifications', {
    config: { access: ADMIN },
    schema: { summary: 'Send a push notification to matching users', body: notificationDraftSchema, response: { 201: notificationResponse } },
  }, async (request, reply) => reply.status(201).send({ notification: await sendNotification(ctx, request.body) }));

  app.delete('/api/notifications/:id', {
    config: { access: ADMIN },
    schema: { summary: 'Delete a sent notification from the list', params: idParams, response: { 204: noContent } },
  }, async (request, reply) => {
    await deleteNotification(ctx, request.params.id);
    return reply.status(204).send(null);
  });
}
