/**
 * What a cancel does with money a rider paid ahead (spec section 3 cancelSlab, section 4 cancel;
 * docs/decisions.md, "refund on cancel"), in integer minor units. The cancellation charge is kept
 * first from what was paid; the rest goes back; a charge above what was paid is owed as before.
 */
export type CancelRefund = {
  /** Goes back to the rider, the way it was paid. Never negative, never above what was paid. */
  refund: number;
  /** Kept from what was paid, toward the cancellation charge. */
  kept: number;
  /** The part of the charge the payment did not cover: owed from the wallet. */
  owed: number;
};

const wholeMinor = (value: number, name: string): number => {
  if (!Number.isSafeInteger(value)) throw new RangeError(`${name} must be whole minor units: ${value}`);
  return Math.max(0, value);
};

/** `paid`: what the rider paid ahead (0 when nothing was); `charge`: the cancellation charge. */
export function cancelRefund({ paid, charge }: { paid: number; charge: number }): CancelRefund {
  const paidMinor = wholeMinor(paid, 'paid');
  const chargeMinor = wholeMinor(charge, 'charge');
  const kept = Math.min(paidMinor, chargeMinor);
  return { refund: paidMinor - kept, kept, owed: chargeMinor - kept };
}
