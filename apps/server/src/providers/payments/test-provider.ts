import type { PaymentProviderPort } from './port';

export const TEST_CHECKOUT_PATH = '/api/payments/test/checkout';
export const TEST_COMPLETE_PATH = '/api/payments/test/complete';

/**
 * The embedded test provider: its checkout and signed confirmation are the payments module's
 * routes; no card is charged. Its refund confirms at once, with an id derived from the idempotency
 * key, so asking twice gives the same refund.
 */
export const testProvider: PaymentProviderPort = {
  name: 'test',
  checkoutLink: TEST_CHECKOUT_PATH,
  testMode: true,
  refund: ({ idempotencyKey }) => Promise.resolve({ status: 'succeeded', providerRefundId: `test_refund_${idempotencyKey}` }),
};
