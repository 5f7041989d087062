import { createHmac, randomUUID } from 'node:crypto';
import {
  NotificationSignatureError,
  ProviderUnavailableError,
  type CheckoutRequest,
  type OffSessionCharge,
  type PaymentEvent,
  type PaymentProviderPort,
  type RefundRequest,
  type SavedCard,
} from '../src/providers/payments/port';

/**
 * An in-test adapter of the payment port (issue 18), given to `createTestApp` as an extra
 * provider: it keeps its checkouts in memory, signs its notifications with an HMAC of the raw
 * body, and can be told to be down, to refuse, or how an off-session charge ends.
 */
export type FakeProvider = PaymentProviderPort & {
  state: {
    down: boolean;
    charge: 'succeeded' | 'requires_action' | 'failed';
    checkouts: Map<string, { request: CheckoutRequest; paid?: { amountMinor: number; currency: string; transactionId: string } }>;
    requests: CheckoutRequest[];
    refunds: RefundRequest[];
    charges: { card: SavedCard; reference: string; amountMinor: number }[];
    removed: SavedCard[];
    /** Runs inside createCheckout, before it answers (a test looks at the database then). */
    onCreate?: (request: CheckoutRequest) => Promise<void>;
  };
  /** The signed raw body and headers of a notification about this event. */
  sign: (event: PaymentEvent) => { payload: string; headers: Record<string, string> };
  /** The rider paid at the provider's page: lookups now answer a success (its notification may be lost). */
  pay: (checkoutId: string, money?: { amountMinor: number; currency: string }) => Extract<PaymentEvent, { reference: string }>;
};

const SECRET = 'fake-provider-secret';
export const FAKE_SIGNATURE_HEADER = 'x-fake-signature';

export function fakeProvider(name: PaymentProviderPort['name'] = 'paystack'): FakeProvider {
  const state: FakeProvider['state'] = { down: false, charge: 'succeeded', checkouts: new Map(), requests: [], refunds: [], charges: [], removed: [] };
  const signature = (raw: Buffer | string) => createHmac('sha256', SECRET).update(raw).digest('hex');
  const successOf = (checkoutId: string): Extract<PaymentEvent, { reference: string }> | undefined => {
    const checkout = state.checkouts.get(checkoutId);
    if (!checkout?.paid) return undefined;
    return { type: 'payment_succeeded', eventId: `lookup:${checkoutId}`, reference: checkout.request.reference, ...checkout.paid };
  };
  return {
    name,
    checkoutLink: `/api/payments/${name}/checkout`,
    testMode: true,
    state,
    policy: { formAction: ['https://pay.fake.example'] },
    async createCheckout(request) {
      state.requests.push(request);
      await state.onCreate?.(request);
      if (state.down) throw new ProviderUnavailableError(name, 'fake: timed out');
      const checkoutId = `cs_${randomUUID()}`;
      state.checkouts.set(checkoutId, { request });
      return { kind: 'redirect', url: `https://pay.fake.example/c/${checkoutId}`, checkoutId };
    },
    parseNotification(raw, headers) {
      const given = headers[FAKE_SIGNATURE_HEADER];
      if (typeof given !== 'string' || given !== signature(raw)) return Promise.reject(new NotificationSignatureError(name));
      return Promise.resolve(JSON.parse(raw.toString('utf8')) as PaymentEvent);
    },
    lookup(checkoutId) {
      if (state.down) return Promise.reject(new ProviderUnavailableError(name, 'fake: timed out'));
      return Promise.resolve(successOf(checkoutId));
    },
    chargeSavedCard(card, request): Promise<OffSessionCharge> {
      state.charges.push({ card, reference: request.reference, amountMinor: request.amountMinor });
      if (state.down) return Promise.reject(new ProviderUnavailableError(name, 'fake: timed out'));
      if (state.charge !== 'succeeded') return Promise.resolve(state.charge === 'failed' ? { status: 'failed', reason: 'card_declined' } : { status: 'requires_action' });
      return Promise.resolve({
        status: 'succeeded',
        event: { type: 'payment_succeeded', eventId: `charge:${request.idempotencyKey}`, reference: request.reference, transactionId: `pi_${request.idempotencyKey}`, amountMinor: request.amountMinor, currency: request.currency },
      });
    },
    removeSavedCard(card) {
      state.removed.push(card);
      return Promise.resolve();
    },
    refund(request) {
      state.refunds.push(request);
      return Promise.resolve({ status: 'succeeded', providerRefundId: `re_${request.idempotencyKey}` });
    },
    sign(event) {
      const payload = JSON.stringify(event);
      return { payload, headers: { 'content-type': 'application/json', [FAKE_SIGNATURE_HEADER]: signature(payload) } };
    },
    pay(checkoutId, money) {
      const checkout = state.checkouts.get(checkoutId);
      if (!checkout) throw new Error(`no checkout ${checkoutId}`);
      checkout.paid = { amountMinor: money?.amountMinor ?? checkout.request.amountMinor, currency: money?.currency ?? checkout.request.currency, transactionId: `pi_${randomUUID()}` };
      const event = successOf(checkoutId);
      if (!event) throw new Error('unreachable');
      return { ...event, eventId: `evt_${randomUUID()}` };
    },
  };
}
