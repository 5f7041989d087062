import type { CarTypeEstimates, CarTypeEstimatesRequest } from '@rideway/contract';
import { fromMinor, insideServiceArea, kmInUnit } from '@rideway/domain';
import type { AppContext } from '../../context';
import { AppError } from '../../http/app-error';
import { listCarTypes } from '../cartypes/service';
import { getSettings } from '../settings/service';
import { fareWithinRange } from './estimate';

/**
 * POST /api/estimates/car-types (issue 17, point 4): the trip priced for every car type, so the
 * form can show each type's price before one is chosen. The maps provider is asked for the route
 * ONCE per request, whatever the number of car types (a real provider bills each call); each
 * fare is the domain's, as POST /api/estimates computes it. Parcel types and options are not
 * chosen yet, so a delivery's price here is the trip's without them (the estimate dialog adds
 * them). A car type whose rates price the trip past what the API carries is left out: it cannot
 * be booked for this trip. Refusals are the single estimate's: outside_service_area before the
 * maps provider is asked, no_route_found, and the provider's own key when it fails.
 */
export async function estimateCarTypes(ctx: AppContext, request: CarTypeEstimatesRequest): Promise<CarTypeEstimates> {
  const { pickup, drop } = request;
  const settings = await getSettings(ctx.db);
  if (!insideServiceArea(pickup, settings.serviceArea)) throw new AppError('outside_service_area', 'pickup');
  const types = await listCarTypes(ctx);
  if (types.length === 0) return { distance: 0, duration: 0, approximate: false, estimates: [] };
  const route = await ctx.maps.route([pickup, drop]);
  if (!route) throw new AppError('no_route_found');
  const distance = Math.round(kmInUnit(route.distanceKm, settings.convert_to_mile) * 1000) / 1000;
  const estimates = types.flatMap((carType) => {
    const fare = fareWithinRange(carType, { distance, duration: route.durationSeconds });
    return !fare ? [] : [{ carType: carType.name, estimateFare: fromMinor(fare.grandTotal), convenience_fees: fromMinor(fare.convenience_fees) }];
  });
  return { distance, duration: route.durationSeconds, approximate: route.approximate, estimates };
}
