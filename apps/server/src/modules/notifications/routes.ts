import { notificationDraftSchema } from '@rideway/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { withBody, withSummary } from '../../http/docs';
import { deleteNotification, listNotifications, sendNotification } from './service';

export function notificationRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/notifications', withSummary('Sent push notifications'), async () => ({ notifications: await listNotifications(ctx) }));
  app.post('/api/notifications', withBody('Send a push notification to matching users', notificationDraftSchema), async (request, reply) => reply.status(201).send({ notification: await sendNotification(ctx, request.body) }));
  app.delete<{ Params: { id: string } }>('/api/notifications/:id', withSummary('Delete a sent notification from the list'), async (request, reply) => {
    await deleteNotification(ctx, request.params.id);
    return reply.status(204).send();
  });
}
