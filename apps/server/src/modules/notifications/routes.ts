import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { deleteNotification, listNotifications, sendNotification } from './service';

export function notificationRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/notifications', async () => ({ notifications: await listNotifications(ctx) }));
  app.post('/api/notifications', async (request, reply) => reply.status(201).send({ notification: await sendNotification(ctx, request.body) }));
  app.delete<{ Params: { id: string } }>('/api/notifications/:id', async (request, reply) => {
    await deleteNotification(ctx, request.params.id);
    return reply.status(204).send();
  });
}
