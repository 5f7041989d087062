import { idParams, noContent, notificationDraftSchema, notificationListResponse, notificationPreferencesResponse, notificationPreferencesSchema, notificationResponse } from '@rideway/contract';
import type { AppContext } from '../../context';
import { actorOf } from '../../http/actor';
import { ADMIN, type RouteApp } from '../../http/routing';
import { deleteNotification, listNotifications, notificationPreferences, sendNotification, setNotificationPreferences } from './service';

export function notificationRoutes(app: RouteApp, ctx: AppContext): void {
  app.get('/api/notifications', {
    config: { access: ADMIN },
    schema: { summary: 'Sent push notifications, newest first, with the devices of each kind addressed and reached', response: { 200: notificationListResponse } },
  }, async () => ({ notifications: await listNotifications(ctx) }));

  app.post('/api/notifications', {
    config: { access: ADMIN },
    schema: { summary: 'Send a push notification to every device of the matching users who take promotions', body: notificationDraftSchema, response: { 201: notificationResponse } },
  }, async (request, reply) => reply.status(201).send({ notification: await sendNotification(ctx, actorOf(request), request.body) }));

  app.delete('/api/notifications/:id', {
    config: { access: ADMIN },
    schema: { summary: 'Delete a sent notification from the list', params: idParams, response: { 204: noContent } },
  }, async (request, reply) => {
    await deleteNotification(ctx, actorOf(request), request.params.id);
    return reply.status(204).send(null);
  });

  app.get('/api/me/notification-preferences', {
    config: { access: 'signedIn' },
    schema: { summary: "The caller's notification choices (issue 19)", response: { 200: notificationPreferencesResponse } },
  }, async (request) => ({ preferences: await notificationPreferences(ctx, actorOf(request)) }));

  app.put('/api/me/notification-preferences', {
    config: { access: 'signedIn' },
    schema: { summary: "Turn the admin's promotional notifications on or off for the caller; trip notices always go", body: notificationPreferencesSchema, response: { 200: notificationPreferencesResponse } },
  }, async (request) => ({ preferences: await setNotificationPreferences(ctx, actorOf(request), request.body) }));
}
