import type { Estimate, Settings } from '@rideway/contract';
import { fareForMinor, fieldOf, fromMinor, isLatLng, kmInUnit, textOf, type FareExtras, type Place } from '@rideway/domain';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Db, Tx } from '../../db/client';
import { carTypes } from '../../db/schema';
import { AppError } from '../../http/app-error';
import { toApiCarType } from '../cartypes/service';
import { getSettings } from '../settings/service';

export type EstimateResult = Estimate & { polylinePoints: string; carType: ReturnType<typeof toApiCarType>; extras: FareExtras; parcelTypeIndex?: number; optionIndex?: number };

export function placeOf(value: unknown, field: string): Place {
  const add = textOf(fieldOf(value, 'add'), 300)?.trim();
  if (!isLatLng(value) || !add) throw new AppError('select_proper', field);
  return { lat: value.lat, lng: value.lng, add };
}

export async function carTypeNamed(db: Db | Tx, name: unknown) {
  const text = textOf(name, 100)?.trim();
  const row = text ? (await db.select().from(carTypes).where(eq(carTypes.name, text)).limit(1))[0] : undefined;
  if (!row) throw new AppError('select_proper', 'carType');
  return toApiCarType(row);
}

function indexOf(value: unknown, length: number, field: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value >= length) throw new AppError('select_proper', field);
  return value;
}

/**
 * POST /api/estimates: the route from the maps port and the fare from packages/domain. Distance
 * is in km, or miles when convert_to_mile; duration in seconds. In delivery mode the chosen
 * parcel type and option are added.
 */
export async function estimateTrip(ctx: AppContext, input: unknown, settingsInForce?: Settings): Promise<EstimateResult> {
  const pickup = placeOf(fieldOf(input, 'pickup'), 'pickup');
  const drop = placeOf(fieldOf(input, 'drop'), 'drop');
  const carType = await carTypeNamed(ctx.db, fieldOf(input, 'carType'));
  const settings = settingsInForce ?? (await getSettings(ctx.db));
  const delivery = settings.appcat === 'delivery';
  const parcelTypeIndex = delivery ? indexOf(fieldOf(input, 'parcelTypeIndex'), carType.parcelTypes.length, 'parcelTypeIndex') : undefined;
  const optionIndex = delivery ? indexOf(fieldOf(input, 'optionIndex'), carType.options.length, 'optionIndex') : undefined;
  const route = await ctx.maps.route([pickup, drop]);
  if (!route) throw new AppError('no_route_found');
  const distance = Math.round(kmInUnit(route.distanceKm, settings.convert_to_mile) * 1000) / 1000;
  const extras: FareExtras = {
    ...(parcelTypeIndex !== undefined && carType.parcelTypes[parcelTypeIndex] ? { parcel: carType.parcelTypes[parcelTypeIndex] } : {}),
    ...(optionIndex !== undefined && carType.options[optionIndex] ? { option: carType.options[optionIndex] } : {}),
  };
  const fare = fareForMinor(carType, { distance, duration: route.durationSeconds }, extras);
  return {
    estimateFare: fromMinor(fare.grandTotal),
    totalCost: fromMinor(fare.totalCost),
    convenience_fees: fromMinor(fare.convenience_fees),
    grandTotal: fromMinor(fare.grandTotal),
    distance,
    duration: route.durationSeconds,
    approximate: route.approximate,
    polylinePoints: route.polylinePoints,
    carType,
    extras,
    ...(parcelTypeIndex !== undefined ? { parcelTypeIndex } : {}),
    ...(optionIndex !== undefined ? { optionIndex } : {}),
  };
}
