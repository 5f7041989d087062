import { z } from 'zod';
import { cancelSlabSchema, carTypeSchema } from '../catalogue';
import { pricedChoice } from '../primitives';

/** Car types (section 3), written by an admin. */

const carTypeFields = {
  name: carTypeSchema.shape.name.trim(),
  image: z.string().max(3_000_000).meta({ description: 'A URL, or a PNG, JPEG or WebP data URL to upload' }),
  base_fare: carTypeSchema.shape.base_fare,
  rate_per_unit_distance: carTypeSchema.shape.rate_per_unit_distance,
  rate_per_hour: carTypeSchema.shape.rate_per_hour,
  min_fare: carTypeSchema.shape.min_fare,
  convenience_fees: carTypeSchema.shape.convenience_fees,
  convenience_fee_type: carTypeSchema.shape.convenience_fee_type,
  extra_info: carTypeSchema.shape.extra_info,
  parcelTypes: z.array(pricedChoice).max(50),
  options: z.array(pricedChoice).max(50),
  cancelSlab: z.array(cancelSlabSchema).max(50),
};
// Strict: a field the server computes or does not know (trip_cost, id) is refused, not ignored.
export const carTypeCreateSchema = z.strictObject({
  ...carTypeFields,
  image: carTypeFields.image.default(''),
  extra_info: carTypeFields.extra_info.default(''),
  parcelTypes: carTypeFields.parcelTypes.default([]),
  options: carTypeFields.options.default([]),
  cancelSlab: carTypeFields.cancelSlab.default([]),
});
export type CarTypeCreate = z.output<typeof carTypeCreateSchema>;

export const carTypeUpdateSchema = z.strictObject(carTypeFields).partial();
export type CarTypeUpdate = z.output<typeof carTypeUpdateSchema>;

export const carTypeListResponse = z.object({ cartypes: z.array(carTypeSchema) });
export const carTypeResponse = z.object({ cartype: carTypeSchema });
