import type { LatLng } from '@rideway/domain';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { drop, pickup } from './fixtures';
import { codeOf } from './harness';

/** Between the fixtures' pickup and drop, for a route through three points. */
export const MIDPOINT = { lat: 51.51955, lng: -0.09995 };

type Post = (url: string, payload: Record<string, unknown>) => Promise<LightMyRequestResponse>;
/** The road a provider's stand-in answers through the points, as its adapter reads it. */
type Road = (points: LatLng[]) => { km: number; seconds: number; polyline: string };

/**
 * Section 7's route calls (drive time, multi-location time, route) answer the provider's road, with
 * their payloads; a point no road reaches answers no_route_found with a 422, never a guess.
 */
export async function expectSection7Routes(post: Post, road: Road): Promise<void> {
  const pair = road([pickup, drop]);
  expect((await post('/googleapis-getdrivetime', { start: '51.5308,-0.1238', dest: '51.5081,-0.0759' })).json()).toEqual({ distance_in_km: pair.km, time_in_secs: pair.seconds });
  const through = road([pickup, MIDPOINT, drop]);
  const multi = await post('/googleapis-getmultiloctime', { start: '51.5308,-0.1238', waypoints: `${MIDPOINT.lat},${MIDPOINT.lng}`, dest: '51.5081,-0.0759' });
  expect(multi.json()).toEqual({ distance_in_km: through.km, time_in_secs: through.seconds });
  expect((await post('/googleapis-getroute', { start: '51.5308,-0.1238', dest: '51.5081,-0.0759' })).json()).toEqual({
    distance: pair.km,
    duration: pair.seconds,
    polylinePoints: pair.polyline,
    approximate: false,
  });
  const nowhere = await post('/googleapis-getroute', { start: '51.5308,-0.1238', dest: '-75,0' });
  expect([nowhere.statusCode, codeOf(nowhere)]).toEqual([422, 'no_route_found']);
}
