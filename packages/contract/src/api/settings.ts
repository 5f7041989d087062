import { validateBonus, validateDriverRadius } from '@rideway/domain';
import { z } from 'zod';
import { mapTilesSchema, publicSettingsSchema, settingsSchema } from '../settings';
import { checkedInput, formNumber } from './form-input';

/** The settings routes (sections 3 and 5). */

/**
 * GET /api/settings: an admin reads every setting, anyone else the public ones. The service
 * hands out the view the caller may see; each is serialized by its own schema.
 */
export const settingsResponse = z.object({ settings: z.union([settingsSchema.extend(mapTilesSchema.shape), publicSettingsSchema.extend(mapTilesSchema.shape)]) });

/**
 * PATCH /api/settings: the settings to change, each typed; an unknown setting is refused.
 * Bonus and driver radius are checked first and take form text too (proper_bonus,
 * proper_driver_radius). Demo mode depends on the stored settings: the service checks it.
 */
const editable = settingsSchema.omit({ bonus: true, driverRadius: true });
// A setting left out of a save keeps its stored value: zod would fill a left-out field that has a
// default (serviceArea, the top-up limits) with that default, so the defaults are taken off here.
type WithoutDefault<T> = T extends z.ZodDefault<infer Inner> ? Inner : T;
type LeftOutKeepsStored<S> = { [K in keyof S]: z.ZodOptional<WithoutDefault<S[K]> & z.ZodType> };
const leftOutKeepsStored = Object.fromEntries(
  Object.entries(editable.shape).map(([key, schema]) => [key, (schema instanceof z.ZodDefault ? schema.unwrap() : schema).optional()]),
) as LeftOutKeepsStored<typeof editable.shape>;

export const settingsUpdateSchema = z.strictObject({
  bonus: checkedInput(formNumber('proper_bonus'), validateBonus).optional(),
  driverRadius: checkedInput(formNumber('proper_driver_radius'), validateDriverRadius).optional(),
  ...leftOutKeepsStored,
});
export type SettingsUpdate = z.output<typeof settingsUpdateSchema>;

export const savedSettingsResponse = z.object({ settings: settingsSchema });
