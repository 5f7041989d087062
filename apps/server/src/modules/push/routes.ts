import { noContent, pushSubscriptionResponse, pushSubscriptionSchema, pushUnsubscribeSchema, vapidPublicKeyResponse } from '@rideway/contract';
import type { AppContext } from '../../context';
import { actorOf } from '../../http/actor';
import type { RouteApp } from '../../http/routing';
import { subscribePush, unsubscribePush, vapidKeys } from './service';

export function pushRoutes(app: RouteApp, ctx: AppContext): void {
  if (ctx.config.PUSH_ALLOW_PRIVATE_ENDPOINTS_FOR_TESTS) {
    app.log.warn('PUSH_ALLOW_PRIVATE_ENDPOINTS_FOR_TESTS is set: push endpoints over http and at private addresses (this machine, the LAN) are accepted and posted to. For tests only; never set it in production.');
  }
  app.get('/api/push/vapid-public-key', {
    config: { access: 'public' },
    schema: { summary: "The server's VAPID public key, for a browser's PushManager.subscribe", response: { 200: vapidPublicKeyResponse } },
  }, async () => ({ publicKey: (await vapidKeys(ctx)).publicKey }));

  app.post('/api/push/subscriptions', {
    config: { access: 'signedIn' },
    schema: { summary: "Keep this device's push subscription (Web Push) or token (FCM, APNs)", body: pushSubscriptionSchema, response: { 201: pushSubscriptionResponse } },
  }, async (request, reply) => reply.status(201).send(await subscribePush(ctx, actorOf(request), request.body)));

  app.delete('/api/push/subscriptions', {
    config: { access: 'signedIn' },
    schema: { summary: 'Forget a push subscription of the caller', body: pushUnsubscribeSchema, response: { 204: noContent } },
  }, async (request, reply) => {
    await unsubscribePush(ctx, actorOf(request), request.body);
    return reply.status(204).send(null);
  });
}
