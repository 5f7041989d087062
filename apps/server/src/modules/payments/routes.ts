import formbody from '@fastify/formbody';
import { htmlPage, idParams, payResponse, payStepSchema, testCheckoutSchema, testConfirmationSchema } from '@rideway/contract';
import type { AppContext } from '../../context';
import { actorOf } from '../../http/actor';
import type { RouteApp } from '../../http/routing';
import { bookingView, payBooking } from '../bookings';
import { checkoutPage, resultPage } from './page';
import { isTestProviderOn } from '../../providers/payments/in-force';
import { cardPaymentForm, confirmTestPayment, TEST_CHECKOUT_PATH, TEST_COMPLETE_PATH, testCheckout } from './service';
import { paymentAccountRoutes } from './account-routes';
import { providerRoutes } from './provider-routes';
import { newSecret } from './signing';

/**
 * Paying a booking (section 4), and the embedded 'test' payment provider: its checkout page and
 * its signed confirmation, posted as a form by the provider's page (or as JSON). The test
 * provider's routes exist only where it is on (providers/payments/in-force.ts) and serve only the
 * booking's own rider, signed in (the web app's same-origin form posts carry the session).
 */
export async function paymentRoutes(app: RouteApp, ctx: AppContext): Promise<void> {
  const secret = ctx.config.PAYMENT_SECRET ?? newSecret();
  await app.register(formbody);

  app.post('/api/bookings/:id/pay', {
    config: { access: ['rider', 'driver'], idempotent: true },
    schema: { summary: 'Pay (rider: wallet, or the card form to post to the provider) or close a cash, wallet or prepaid trip (driver)', params: idParams, body: payStepSchema, response: { 200: payResponse } },
  }, async (request) => {
    const actor = actorOf(request);
    const { payment_mode } = request.body;
    // A rider's card payment goes through the provider: the answer is the form to post there.
    if (actor.usertype === 'rider' && payment_mode === 'card') return cardPaymentForm(ctx, actor, request.params.id);
    return bookingView(await payBooking(ctx, { actor, bookingId: request.params.id, payment_mode }), actor);
  });

  providerRoutes(app, ctx);
  paymentAccountRoutes(app, ctx);

  if (!(await isTestProviderOn(ctx.db, ctx.config))) return;

  app.post(TEST_CHECKOUT_PATH, {
    config: { access: ['rider'] },
    schema: { summary: "The test provider's checkout page (section 4 payment form fields)", body: testCheckoutSchema, response: { 200: htmlPage } },
  }, async (request, reply) => reply.type('text/html; charset=utf-8').send(checkoutPage(await testCheckout(ctx, secret, actorOf(request), request.body))));

  app.post(TEST_COMPLETE_PATH, {
    // Posted by the checkout page on this origin: the origin check applies, and the rider's session.
    config: { access: ['rider'] },
    schema: { summary: "The test provider's signed confirmation", body: testConfirmationSchema, response: { 200: htmlPage } },
  }, async (request, reply) => {
    const { outcome } = await confirmTestPayment(ctx, secret, actorOf(request), request.body);
    return reply.type('text/html; charset=utf-8').send(resultPage(outcome));
  });
}
