import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cancelRefund } from './cancel-refund';

describe('section 3 cancelSlab and section 4 cancel: the refund of a prepaid booking (docs/decisions.md)', () => {
  it('refunds everything when the cancel is free', () => {
    expect(cancelRefund({ paid: 1139, charge: 0 })).toEqual({ refund: 1139, kept: 0, owed: 0 });
  });

  it('keeps the cancellation charge and refunds the rest', () => {
    expect(cancelRefund({ paid: 1139, charge: 300 })).toEqual({ refund: 839, kept: 300, owed: 0 });
  });

  it('keeps at most what was paid; the rest of a larger charge is owed', () => {
    expect(cancelRefund({ paid: 200, charge: 300 })).toEqual({ refund: 0, kept: 200, owed: 100 });
  });

  it('refunds nothing when nothing was paid ahead: the charge is owed', () => {
    expect(cancelRefund({ paid: 0, charge: 300 })).toEqual({ refund: 0, kept: 0, owed: 300 });
  });

  it('never refunds a negative amount or more than was paid, and the parts add up', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1000, max: 10_000_000 }), fc.integer({ min: -1000, max: 10_000_000 }), (paid, charge) => {
        const { refund, kept, owed } = cancelRefund({ paid, charge });
        expect(refund).toBeGreaterThanOrEqual(0);
        expect(refund).toBeLessThanOrEqual(Math.max(0, paid));
        expect(refund + kept).toBe(Math.max(0, paid));
        expect(kept + owed).toBe(Math.max(0, charge));
      }),
    );
  });

  it('refuses fractions of a minor unit', () => {
    expect(() => cancelRefund({ paid: 11.39, charge: 0 })).toThrow(RangeError);
  });
});
