import { describe, expect, it } from 'vitest';
import { cancellationCharge, type CancelChargeInput } from './cancel-charge';

const acceptedAt = 1_800_000_000_000;
const base: CancelChargeInput = {
  slabs: [
    { minsDelayed: 2, amount: 1 },
    { minsDelayed: 5, amount: 3 },
    { minsDelayed: 10, amount: 5.5 },
  ],
  status: 'ACCEPTED',
  cancelledBy: 'rider',
  acceptedAt,
  now: acceptedAt,
  tripCost: 20,
};
const minutes = (m: number): number => acceptedAt + m * 60_000;

describe('section 3 cancelSlab: the cancellation charge (docs/decisions.md)', () => {
  it('is free before the first slab', () => {
    expect(cancellationCharge({ ...base, now: minutes(1.99) })).toBe(0);
  });

  it('takes the slab with the largest minsDelayed not above the minutes since acceptance', () => {
    expect(cancellationCharge({ ...base, now: minutes(2) })).toBe(1);
    expect(cancellationCharge({ ...base, now: minutes(7) })).toBe(3);
    expect(cancellationCharge({ ...base, now: minutes(60) })).toBe(5.5);
  });

  it('reads slabs in any order', () => {
    expect(cancellationCharge({ ...base, slabs: [...base.slabs].reverse(), now: minutes(6) })).toBe(3);
  });

  it('applies after the driver arrived too', () => {
    expect(cancellationCharge({ ...base, status: 'ARRIVED', now: minutes(11) })).toBe(5.5);
  });

  it('never exceeds the trip fare', () => {
    expect(cancellationCharge({ ...base, tripCost: 4, now: minutes(30) })).toBe(4);
  });

  it('is free with no driver yet, for admin and system cancels, or with no slabs', () => {
    expect(cancellationCharge({ ...base, status: 'NEW', acceptedAt: null, now: minutes(30) })).toBe(0);
    expect(cancellationCharge({ ...base, status: 'NEW', now: minutes(30) })).toBe(0);
    expect(cancellationCharge({ ...base, cancelledBy: 'admin', now: minutes(30) })).toBe(0);
    expect(cancellationCharge({ ...base, cancelledBy: 'system', now: minutes(30) })).toBe(0);
    expect(cancellationCharge({ ...base, slabs: [], now: minutes(30) })).toBe(0);
  });

  it('treats a clock behind the acceptance as zero minutes', () => {
    expect(cancellationCharge({ ...base, slabs: [{ minsDelayed: 0, amount: 2 }], now: acceptedAt - 5000 })).toBe(2);
  });
});
