import { htmlPage, providerCheckoutSchema, providerCompleteSchema, providerReturnQuery, redirectAnswer, webhookAck } from '@rideway/contract';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { actorOf } from '../../http/actor';
import { AppError } from '../../http/app-error';
import type { RouteApp } from '../../http/routing';
import { configuredProviders, providerInForce } from '../../providers/payments/in-force';
import type { PaymentProviderPort } from '../../providers/payments/port';
import { CHECKOUT_SCRIPT, CHECKOUT_SCRIPT_PATH } from './checkout-script';
import { CHECKOUT_STYLE, CHECKOUT_STYLE_PATH } from './checkout-style';
import { openCheckout } from './checkout-summary';
import { completeClientCheckout, returnFromProvider } from './return';
import { receiveNotification } from './webhook';

const html = 'text/html; charset=utf-8';

/**
 * Every configured provider's checkout, return, completion and notifications (issue 18), at
 * `/api/payments/<name>/...`; the embedded test provider keeps its own checkout and confirmation
 * (routes.ts).
 */
export function providerRoutes(app: RouteApp, ctx: AppContext): void {
  app.get(CHECKOUT_SCRIPT_PATH, {
    config: { access: 'public' },
    schema: { summary: "The checkout pages' script: posts a form checkout on, or hands a client token to the provider's browser script", response: { 200: { description: 'JavaScript', content: { 'text/javascript': { schema: z.string() } } } } },
  }, async (_request, reply) => reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=3600').send(CHECKOUT_SCRIPT));
  app.get(CHECKOUT_STYLE_PATH, {
    config: { access: 'public' },
    schema: { summary: "The checkout pages' stylesheet (served from this origin: the pages carry no inline style)", response: { 200: { description: 'CSS', content: { 'text/css': { schema: z.string() } } } } },
  }, async (_request, reply) => reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=3600').send(CHECKOUT_STYLE));

  for (const provider of configuredProviders(ctx.config)) registerProvider(app, ctx, provider);
}

/** One configured provider's routes; a provider not configured has none (its paths do not exist). */
function registerProvider(app: RouteApp, ctx: AppContext, provider: PaymentProviderPort): void {
  const base = `/api/payments/${provider.name}`;
  // Checkouts start only while the provider takes payments (the test provider off: none).
  const taking = async (): Promise<PaymentProviderPort> => {
    if (!(await providerInForce(ctx.db, ctx.config, provider.name))) throw new AppError('not_found');
    return provider;
  };

  if (provider.createCheckout) {
    app.post(`${base}/checkout`, {
      // The section 4 card form, posted by the web app on this origin with the rider's session.
      config: { access: ['rider'] },
      schema: { summary: `Start ${provider.name}'s checkout of the rider's booking or top-up (the section 4 form's target)`, body: providerCheckoutSchema, response: { 200: htmlPage, ...redirectAnswer } },
    }, async (request, reply) => {
      const answer = await openCheckout(ctx, actorOf(request), await taking(), request.body);
      return 'redirect' in answer ? reply.redirect(answer.redirect, 303) : reply.type(html).send(answer.html);
    });

    app.get(`${base}/return`, {
      // A top-level navigation back from the provider's page: the server asks the provider itself.
      config: { access: 'public' },
      schema: { summary: `Back from ${provider.name}'s page: the payment is looked up (or captured) there, then the booking's page`, querystring: providerReturnQuery, response: redirectAnswer },
    }, async (request, reply) => reply.redirect(await returnFromProvider(ctx, provider, request.query), 303));

    app.post(`${base}/return`, {
      // Paytm posts the rider's browser back from its own domain (its callbackUrl): handled as the GET, the posted fields are never believed.
      config: { access: 'public', crossSite: true },
      schema: { summary: `Back from ${provider.name}'s page by a form post: the payment is looked up there, then the booking's page`, querystring: providerReturnQuery, response: redirectAnswer },
    }, async (request, reply) => reply.redirect(await returnFromProvider(ctx, provider, request.query), 303));
  }

  if (provider.complete) {
    app.post(`${base}/complete`, {
      config: { access: ['rider'] },
      schema: { summary: `The nonce of ${provider.name}'s browser script, charged for the checkout's own amount`, body: providerCompleteSchema, response: redirectAnswer },
    }, async (request, reply) => reply.redirect(await completeClientCheckout(ctx, actorOf(request), provider, request.body, request.ip), 303));
  }

  if (!provider.parseNotification) return;
  // Notifications are verified on their raw bytes (Stripe signs them): this scope keeps the body as it came.
  void app.register((scope: RouteApp, _options, done) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_request, body, done) => {
      done(null, body);
    });
    scope.post(`${base}/webhook`, {
      // Sent by the provider's servers: no session, no origin; its signature is checked instead.
      config: { access: 'public', crossSite: true },
      schema: { summary: `${provider.name}'s signed notification: recorded once, a replay changes nothing`, response: { 200: webhookAck } },
    }, async (request) => {
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      await receiveNotification(ctx, provider, raw, request.headers);
      return { received: true as const };
    });
    done();
  });
}
