import { describe, expect, it } from 'vitest';
import { checkWithdrawDecision, isWithdrawRefund, withdrawRefundRef, withdrawState } from './withdraw';

describe('a withdraw request is decided once (section 4, issue 17)', () => {
  it('reads its state from processed and rejected', () => {
    expect(withdrawState({ processed: false, rejected: false })).toBe('pending');
    expect(withdrawState({ processed: true, rejected: false })).toBe('processed');
    expect(withdrawState({ processed: false, rejected: true })).toBe('rejected');
  });

  it('lets only a pending request be processed or rejected', () => {
    expect(checkWithdrawDecision({ processed: false, rejected: false })).toEqual({ ok: true, value: 'pending' });
    expect(checkWithdrawDecision({ processed: true, rejected: false })).toEqual({ ok: false, key: 'withdraw_already_decided' });
    expect(checkWithdrawDecision({ processed: false, rejected: true })).toEqual({ ok: false, key: 'withdraw_already_decided' });
  });

  it('names the request in the refund of a rejected one', () => {
    expect(withdrawRefundRef('w-1')).toBe('WithdrawRejected:w-1');
    expect(isWithdrawRefund(withdrawRefundRef('w-1'))).toBe(true);
    expect(isWithdrawRefund('w-1')).toBe(false);
    expect(isWithdrawRefund('AdminCredit')).toBe(false);
  });
});
