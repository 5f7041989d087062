import type { BookingStatus } from './booking-status';
import { fromMinor, toMinor } from './money';

/** Section 3: a car type's cancellation slab, money in major units. */
export type CancelSlab = { minsDelayed: number; amount: number };

export type CancelChargeInput = {
  slabs: readonly CancelSlab[];
  status: BookingStatus;
  /** Who cancels. */
  cancelledBy: 'rider' | 'admin' | 'system';
  /** When the driver accepted (epoch ms); null when no driver had accepted. */
  acceptedAt: number | null;
  now: number;
  /** The trip's fare, in major units: the charge never exceeds it. */
  tripCost: number;
};

/**
 * The cancellation charge (decisions.md, "cancellation charge"): only a rider pays one, only once
 * a driver has accepted (ACCEPTED or ARRIVED), and it is the amount of the slab with the largest
 * minsDelayed not above the whole minutes since acceptance; none before the first slab; never
 * above the trip's fare. Admin and system cancels are free: they are the platform's call.
 */
export function cancellationCharge(input: CancelChargeInput): number {
  if (input.cancelledBy !== 'rider' || input.acceptedAt === null) return 0;
  if (input.status !== 'ACCEPTED' && input.status !== 'ARRIVED') return 0;
  const minutes = Math.floor(Math.max(0, input.now - input.acceptedAt) / 60000);
  let best: CancelSlab | undefined;
  for (const slab of input.slabs) {
    if (slab.minsDelayed <= minutes && (!best || slab.minsDelayed > best.minsDelayed)) best = slab;
  }
  if (!best) return 0;
  return fromMinor(Math.max(0, Math.min(toMinor(best.amount), toMinor(input.tripCost))));
}
