import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Security-critical: the test provider's confirmation is signed by the server when it renders
 * the checkout page, so a browser cannot confirm a payment it did not make or change its amount.
 * Real providers sign their webhooks the same way with their own secrets.
 */
export type Confirmation = { orderId: string; amountMinor: number; currency: string; transactionId: string; outcome: 'succeeded' | 'declined' };

export const newSecret = (): string => randomBytes(32).toString('hex');

const payloadOf = (c: Confirmation): string => [c.orderId, c.amountMinor, c.currency, c.transactionId, c.outcome].join('|');

export const sign = (secret: string, confirmation: Confirmation): string => createHmac('sha256', secret).update(payloadOf(confirmation)).digest('hex');

export function verify(secret: string, confirmation: Confirmation, signature: string): boolean {
  const expected = Buffer.from(sign(secret, confirmation));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
