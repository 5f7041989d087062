import { fail, ok, type Result } from './result';

/**
 * An admin's refund of a paid trip (issue 18), in integer minor units: in part or in full, never
 * more than what was paid less what was already refunded (whatever the earlier refunds were: a
 * cancel's, another admin's), so every refund together stays within the payment.
 */
export type RefundLimitInput = {
  /** What the rider paid for the trip (card or wallet). */
  paid: number;
  /** Refunds already given or asked for, not refused. */
  refunded: number;
};

/** What may still be refunded: never negative. */
export function refundableMinor({ paid, refunded }: RefundLimitInput): number {
  return Math.max(0, paid - Math.max(0, refunded));
}

/** The amount an admin asked for, if it may be refunded: above 0 and at most what is refundable. */
export function checkRefund(input: RefundLimitInput & { amount: number }): Result<number> {
  if (!Number.isSafeInteger(input.amount) || input.amount <= 0) return fail('no_details_error', 'amount');
  if (input.amount > refundableMinor(input)) return fail('refund_exceeds_paid', 'amount');
  return ok(input.amount);
}
