import { isMoneyAmount, MAX_MINOR } from '@rideway/domain';
import { z } from 'zod';

/** Money in JSON: a number with at most 2 decimals (API.md). */
export const money = z
  .number()
  .refine(isMoneyAmount, { message: 'an amount with at most 2 decimals' })
  .meta({ description: 'An amount in major units with at most 2 decimals', maximum: MAX_MINOR / 100 });

export const nonNegativeMoney = money.refine((amount) => amount >= 0, { message: 'an amount of 0 or more' });

/** Times in JSON are epoch milliseconds (API.md). */
export const epochMs = z.number().int().nonnegative().meta({ description: 'Epoch milliseconds' });

export const uid = z.string().min(1).max(128);

export const latLng = z.object({ lat: z.number().min(-90).max(90), lng: z.number().min(-180).max(180) });

/** A place as bookings carry it: coordinates and an address. */
export const place = latLng.extend({ add: z.string().max(300) });

/** A description and an amount: parcel types and options (section 3). */
export const pricedChoice = z.object({ description: z.string().min(1).max(200), amount: nonNegativeMoney });
