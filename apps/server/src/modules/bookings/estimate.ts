import type { Estimate, EstimateRequest, Settings } from '@rideway/contract';
import { fareForMinor, fromMinor, insideServiceArea, kmInUnit, MAX_MINOR, type FareExtras } from '@rideway/domain';
import type { AppContext } from '../../context';
import type { Db, Tx } from '../../db/client';
import { AppError } from '../../http/app-error';
import { carTypeByName, type toApiCarType } from '../cartypes/service';
import { getSettings } from '../settings/service';

type EstimateResult = Estimate & { polylinePoints: string; carType: ReturnType<typeof toApiCarType>; extras: FareExtras; parcelTypeIndex?: number; optionIndex?: number };

/** The car type from the process's cached list (issue 21: an estimate reads nothing when nothing changed). */
async function carTypeNamed(db: Db | Tx, name: string) {
  const carType = await carTypeByName(db, name);
  if (!carType) throw new AppError('select_proper', 'carType');
  return { ...carType };
}

/** A parcel type or option chosen by its index: one of the car type's, else select_proper. */
function choiceOf(index: number | null | undefined, length: number, field: string): number | undefined {
  if (index === undefined || index === null) return undefined;
  if (index >= length) throw new AppError('select_proper', field);
  return index;
}

/**
 * A car type's fare for a trip, or undefined when its rates price the trip past the largest
 * amount the API carries (the domain's money refuses such an amount with a RangeError): that car
 * type cannot be booked for this trip, which is the caller's refusal, never a 500.
 */
export function fareWithinRange(carType: Parameters<typeof fareForMinor>[0], trip: Parameters<typeof fareForMinor>[1], extras: FareExtras = {}): ReturnType<typeof fareForMinor> | undefined {
  try {
    const fare = fareForMinor(carType, trip, extras);
    return fare.grandTotal > MAX_MINOR ? undefined : fare;
  } catch (error) {
    if (error instanceof RangeError) return undefined;
    throw error;
  }
}

/**
 * POST /api/estimates: the route from the maps port and the fare from packages/domain. Distance
 * is in km, or miles when convert_to_mile; duration in seconds. In delivery mode the chosen
 * parcel type and option are added. No route answers no_route_found; a maps provider that fails
 * throws its MapsProviderError, which the error mapper answers with the same key (never a guess).
 * A pickup outside the service area answers outside_service_area before the maps provider is
 * asked (issue 16, point 6; the drop may lie outside, decisions.md). Booking creation, the
 * rider's and the admin's, estimates here too, so it is refused the same way.
 * Called before any transaction opens (booking creation estimates first, then writes).
 */
export async function estimateTrip(ctx: AppContext, request: EstimateRequest, settingsInForce?: Settings): Promise<EstimateResult> {
  const { pickup, drop } = request;
  const carType = await carTypeNamed(ctx.db, request.carType);
  const settings = settingsInForce ?? (await getSettings(ctx.db));
  if (!insideServiceArea(pickup, settings.serviceArea)) throw new AppError('outside_service_area', 'pickup');
  const delivery = settings.appcat === 'delivery';
  const parcelTypeIndex = delivery ? choiceOf(request.parcelTypeIndex, carType.parcelTypes.length, 'parcelTypeIndex') : undefined;
  const optionIndex = delivery ? choiceOf(request.optionIndex, carType.options.length, 'optionIndex') : undefined;
  const route = await ctx.maps.route([pickup, drop]);
  if (!route) throw new AppError('no_route_found');
  const distance = Math.round(kmInUnit(route.distanceKm, settings.convert_to_mile) * 1000) / 1000;
  const extras: FareExtras = {
    ...(parcelTypeIndex !== undefined && carType.parcelTypes[parcelTypeIndex] ? { parcel: carType.parcelTypes[parcelTypeIndex] } : {}),
    ...(optionIndex !== undefined && carType.options[optionIndex] ? { option: carType.options[optionIndex] } : {}),
  };
  const fare = fareWithinRange(carType, { distance, duration: route.durationSeconds }, extras);
  // A car type's rates can price a trip past the largest amount the API carries: that car type cannot be booked.
  if (!fare) throw new AppError('validation_error', 'carType');
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
