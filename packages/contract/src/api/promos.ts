import { z } from 'zod';
import { promoSchema } from '../catalogue';

/** Promos (section 3), written by an admin. */

// Strict: user_avail is counted by the server and read-only, so a body carrying it is refused.
const promoFields = {
  promo_name: promoSchema.shape.promo_name.trim().toUpperCase(),
  promo_description: promoSchema.shape.promo_description,
  promo_discount_type: promoSchema.shape.promo_discount_type,
  promo_discount_value: promoSchema.shape.promo_discount_value,
  max_promo_discount_value: promoSchema.shape.max_promo_discount_value,
  min_order: promoSchema.shape.min_order,
  promo_validity: promoSchema.shape.promo_validity,
  promo_usage_limit: promoSchema.shape.promo_usage_limit.max(1_000_000_000),
};
export const promoCreateSchema = z.strictObject({
  ...promoFields,
  promo_description: promoFields.promo_description.default(''),
  max_promo_discount_value: promoFields.max_promo_discount_value.default(0),
  min_order: promoFields.min_order.default(0),
});
export type PromoCreate = z.output<typeof promoCreateSchema>;

export const promoUpdateSchema = z.strictObject(promoFields).partial();
export type PromoUpdate = z.output<typeof promoUpdateSchema>;

export const promoListResponse = z.object({ promos: z.array(promoSchema) });
export const promoResponse = z.object({ promo: promoSchema });
