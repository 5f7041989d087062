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
export const settingsUpdateSchema = z.strictObject({
  bonus: checkedInput(formNumber('proper_bonus'), validateBonus).optional(),
  driverRadius: checkedInput(formNumber('proper_driver_radius'), validateDriverRadius).optional(),
  ...settingsSchema.omit({ bonus: true, driverRadius: true }).partial().shape,
});
export type SettingsUpdate = z.output<typeof settingsUpdateSchema>;

export const savedSettingsResponse = z.object({ settings: settingsSchema });
