import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cancelRefund } from './cancel-refund';
import { checkRefund, refundableMinor } from './refund-limit';

describe('an admin refund (issue 18)', () => {
  it('refunds in part or in full, never above what was paid less what was refunded', () => {
    expect(checkRefund({ paid: 1000, refunded: 0, amount: 400 })).toEqual({ ok: true, value: 400 });
    expect(checkRefund({ paid: 1000, refunded: 400, amount: 600 })).toEqual({ ok: true, value: 600 });
    expect(checkRefund({ paid: 1000, refunded: 400, amount: 601 })).toEqual({ ok: false, key: 'refund_exceeds_paid', field: 'amount' });
    expect(checkRefund({ paid: 1000, refunded: 1000, amount: 1 })).toMatchObject({ ok: false, key: 'refund_exceeds_paid' });
    expect(checkRefund({ paid: 1000, refunded: 0, amount: 0 })).toMatchObject({ ok: false, key: 'no_details_error' });
    expect(checkRefund({ paid: 1000, refunded: 0, amount: 1.5 })).toMatchObject({ ok: false, key: 'no_details_error' });
    expect(refundableMinor({ paid: 500, refunded: 700 })).toBe(0);
  });

  /**
   * Money is conserved over any sequence of pay, cancel and refund: a model of one booking's
   * money where each step goes through the domain's rules, and at every point what was paid less
   * what went back equals what the booking keeps, never below zero nor above what was paid.
   */
  it('conserves money over random sequences of pay, cancel and refund', () => {
    const step = fc.oneof(
      fc.record({ type: fc.constant('pay' as const), amount: fc.integer({ min: 1, max: 100_000 }) }),
      fc.record({ type: fc.constant('cancel' as const), charge: fc.integer({ min: 0, max: 100_000 }) }),
      fc.record({ type: fc.constant('refund' as const), amount: fc.integer({ min: -10, max: 100_000 }) }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 30 }), (steps) => {
        let paid = 0;
        let refunded = 0;
        let cancelled = false;
        let late = 0;
        for (const s of steps) {
          if (s.type === 'pay') {
            // A payment after the cancel, or a second one, is given back in full (unapplied).
            if (cancelled || paid > 0) late += s.amount;
            else paid = s.amount;
          } else if (s.type === 'cancel' && !cancelled) {
            cancelled = true;
            const { refund } = cancelRefund({ paid: paid - refunded, charge: s.charge });
            refunded += refund;
          } else if (s.type === 'refund' && !cancelled) {
            const checked = checkRefund({ paid, refunded, amount: s.amount });
            if (checked.ok) refunded += checked.value;
          }
          const kept = paid - refunded;
          expect(kept).toBeGreaterThanOrEqual(0);
          expect(kept).toBeLessThanOrEqual(paid);
          expect(paid + late - (refunded + late)).toBe(kept);
        }
      }),
    );
  });
});
