import formbody from '@fastify/formbody';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { withSummary } from '../../http/docs';
import { checkoutPage, resultPage } from './page';
import { confirmPayment, TEST_CHECKOUT_PATH, TEST_COMPLETE_PATH, testCheckout } from './service';
import { newSecret } from './signing';

/** The embedded 'test' payment provider: its checkout page and its signed confirmation. */
export async function paymentRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const secret = ctx.config.PAYMENT_SECRET ?? newSecret();
  await app.register(formbody);
  app.post(TEST_CHECKOUT_PATH, withSummary("The test provider's checkout page (section 4 payment form fields)"), async (request, reply) =>
    reply.type('text/html; charset=utf-8').send(checkoutPage(await testCheckout(ctx, secret, request.body))),
  );
  app.post(TEST_COMPLETE_PATH, withSummary("The test provider's signed confirmation"), async (request, reply) => {
    const { outcome } = await confirmPayment(ctx, secret, request.body);
    return reply.type('text/html; charset=utf-8').send(resultPage(outcome));
  });
}
