import type { LatLng } from '@rideway/domain';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { routeBetween, type PlannedRoute } from '../../api/places';
import { routePoints } from './polyline';

/**
 * The route between two places (section 7's getroute) and its points, asked once per pair: a
 * route does not change while the page is open, and each call may be billed by the provider.
 */
export function usePlannedRoute(start: LatLng | null, dest: LatLng | null) {
  const query = useQuery({
    queryKey: ['route', start?.lat, start?.lng, dest?.lat, dest?.lng],
    queryFn: ({ signal }): Promise<PlannedRoute> => (start && dest ? routeBetween(start, dest, signal) : Promise.reject(new Error('no route without both places'))),
    enabled: start !== null && dest !== null,
    staleTime: Infinity,
    gcTime: 10 * 60_000,
    retry: false,
  });
  const polylinePoints = query.data?.polylinePoints;
  const points = useMemo(() => (polylinePoints === undefined ? [] : routePoints(polylinePoints)), [polylinePoints]);
  return { route: query.data ?? null, points, error: query.error, isFetching: query.isFetching };
}
