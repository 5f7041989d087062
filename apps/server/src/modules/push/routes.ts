import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { actorOf } from '../../http/actor';
import { withSummary } from '../../http/docs';
import { subscribePush, unsubscribePush, vapidKeys } from './service';

export function pushRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/push/vapid-public-key', withSummary("The server's VAPID public key, for a browser's PushManager.subscribe"), async () => ({ publicKey: (await vapidKeys(ctx)).publicKey }));
  app.post('/api/push/subscriptions', withSummary("Keep this device's push subscription (Web Push) or token (FCM, APNs)"), async (request, reply) =>
    reply.status(201).send(await subscribePush(ctx, actorOf(request), request.body)),
  );
  app.delete('/api/push/subscriptions', withSummary('Forget a push subscription of the caller'), async (request, reply) => {
    await unsubscribePush(ctx, actorOf(request), request.body);
    return reply.status(204).send();
  });
}
