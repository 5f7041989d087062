import { fail, ok, type Result } from './result';

/**
 * Section 4's withdraw request, with the admin's refusal (issue 17): a request waits until an
 * admin decides it once, either way. Processed means paid out (section 4); rejected means the
 * amount went back to the driver's wallet. The two never both hold.
 */
export type WithdrawState = 'pending' | 'processed' | 'rejected';

export type WithdrawDecision = 'process' | 'reject';

export const withdrawState = (withdraw: { processed: boolean; rejected: boolean }): WithdrawState =>
  withdraw.processed ? 'processed' : withdraw.rejected ? 'rejected' : 'pending';

/** Only a pending request may be decided; a second decision (or a second click) is refused. */
export function checkWithdrawDecision(withdraw: { processed: boolean; rejected: boolean }): Result<WithdrawState> {
  const state = withdrawState(withdraw);
  return state === 'pending' ? ok(state) : fail('withdraw_already_decided');
}

/** The wallet ledger's reference of a rejected request's refund: it names the request. */
const REFUND_PREFIX = 'WithdrawRejected:';
export const withdrawRefundRef = (withdrawId: string): string => `${REFUND_PREFIX}${withdrawId}`;
export const isWithdrawRefund = (txRef: string): boolean => txRef.startsWith(REFUND_PREFIX);
