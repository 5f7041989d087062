/**
 * Security-critical: what a promo code gives one rider on one trip cost. Used by the estimate
 * dialog's Apply (a preview; nothing is used up) and by booking creation (inside its transaction,
 * the promo's row locked, then its use counted). Both answer the same keys, so a code Apply
 * accepted is refused at Confirm only when its state changed in between.
 */
import { fromMinor, promoDiscount } from '@rideway/domain';
import { and, eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { promos, promoUses } from '../../db/schema';
import { AppError } from '../../http/app-error';

export type PromoRow = typeof promos.$inferSelect;

/** The section 3 promo_details a booking keeps of the promo it used. */
export type PromoDetails = { promo_name: string; promo_discount_type: 'flat' | 'percentage'; promo_discount_value: number };

/** Codes are stored upper-case (decisions.md) and typed in any case. */
export const promoCodeOf = (name: string): string => name.trim().toUpperCase();

/** The promo of a code, or promo_not_found at the promo field; `lock` holds its row for the caller's transaction. */
export async function findPromo(db: Db | Tx, name: string, lock = false): Promise<PromoRow> {
  const query = db.select().from(promos).where(eq(promos.promoName, promoCodeOf(name))).limit(1);
  const promo = (lock ? await query.for('update') : await query)[0];
  if (!promo) throw new AppError('promo_not_found', 'promo');
  return promo;
}

/**
 * The discount of `promo` for this rider on `tripCost` (major units), with the details a booking
 * keeps; a refusal is the domain's key at the promo field.
 */
export async function promoOffer(db: Db | Tx, promo: PromoRow, use: { riderUid: string; tripCost: number; now: number }): Promise<{ discount: number; details: PromoDetails }> {
  const used = await db.select({ uid: promoUses.uid }).from(promoUses).where(and(eq(promoUses.promoId, promo.id), eq(promoUses.uid, use.riderUid))).limit(1);
  const type = promo.promoDiscountType as PromoDetails['promo_discount_type'];
  const result = promoDiscount(
    {
      promo_discount_type: type,
      promo_discount_value: fromMinor(promo.promoDiscountValueHundredths),
      max_promo_discount_value: fromMinor(promo.maxPromoDiscountValueMinor),
      min_order: fromMinor(promo.minOrderMinor),
      promo_validity: promo.promoValidity,
      promo_usage_limit: promo.promoUsageLimit,
      user_avail: promo.userAvail,
    },
    { tripCost: use.tripCost, now: use.now, usedByRider: used.length > 0 },
  );
  if (!result.ok) throw new AppError(result.key, 'promo');
  return { discount: result.value, details: { promo_name: promo.promoName, promo_discount_type: type, promo_discount_value: fromMinor(promo.promoDiscountValueHundredths) } };
}
