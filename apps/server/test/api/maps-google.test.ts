import { fareFor, type LatLng } from '@rideway/domain';
import { count } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bookings } from '../../src/db/schema';
import type { UserRow } from '../../src/modules/users/accounts';
import { drop, pickup, sedan } from '../fixtures';
import { codeOf, createTestApp, ENGINES, type TestApp } from '../harness';
import { expectSection7Routes } from '../maps-routes';
import { PLACES, standInRoute, startGoogleMaps, type GoogleStandIn, type GoogleStandInMode } from '../stand-ins/google-maps';

/** The route the Google stand-in answers through these points, as the adapter reads it (km, seconds). */
const road = (points: LatLng[]) => {
  const { metres, seconds, polyline } = standInRoute(points);
  return { km: metres / 1000, seconds, polyline };
};
const [BAKER_221B] = PLACES as [(typeof PLACES)[number]];

describe.each(ENGINES)('real maps (MAPS_PROVIDER=google) against a local Google stand-in on %s', (engine) => {
  let t: TestApp;
  let google: GoogleStandIn;
  let admin: UserRow;
  let rider: UserRow;

  const post = (url: string, payload: Record<string, unknown>, as: UserRow = rider) => t.request({ method: 'POST', url, as, payload });
  const bookingCount = async () => (await t.db.select({ n: count() }).from(bookings))[0]?.n ?? 0;

  beforeAll(async () => {
    google = await startGoogleMaps();
    // Long enough for a loaded machine (CI runs the files in parallel) to reach the stand-in;
    // 'hang' waits it out once per call.
    t = await createTestApp(engine, { MAPS_PROVIDER: 'google', GOOGLE_MAPS_API_KEY: google.key, GOOGLE_MAPS_API_URL: google.url, MAPS_TIMEOUT_MS: '1500' });
    admin = await t.makeUser('admin');
    rider = await t.makeUser('rider');
    await post('/api/cartypes', sedan, admin);
  });
  afterAll(async () => {
    await t.close();
    await google.close();
  });
  beforeEach(() => {
    google.mode = 'ok';
    google.requests.length = 0;
  });

  it("estimates and books with the Routes API's road distance and duration", async () => {
    const quote = road([pickup, drop]);
    const fare = fareFor(sedan, { distance: quote.km, duration: quote.seconds });
    const estimate = await post('/api/estimates', { pickup, drop, carType: 'Sedan' });
    expect(estimate.statusCode).toBe(200);
    expect(estimate.json()).toMatchObject({ distance: quote.km, duration: quote.seconds, approximate: false, estimateFare: fare.grandTotal });
    expect(google.requests[0]).toMatchObject({ method: 'POST', path: '/directions/v2:computeRoutes' });
    await t.goOnline(await t.makeUser('driver', { carType: 'Sedan' }));
    const booked = await post('/api/bookings', { pickup, drop, carType: 'Sedan', payment_mode: 'cash' });
    expect([booked.statusCode, codeOf(booked)]).toEqual([201, undefined]);
    expect(booked.json()).toMatchObject({ estimateDistance: quote.km, estimateTime: quote.seconds, estimate: fare.grandTotal });
    // Google's answers are not kept (its terms): the booking asked again.
    expect(google.requests.filter((request) => request.path === '/directions/v2:computeRoutes')).toHaveLength(2);
  });

  it('answers the section 7 maps calls from Google, with their payloads', async () => {
    const search = await post('/googleapis-autocomplete', { searchKeyword: '221B Baker' });
    expect(search.json()).toEqual({ searchResults: [{ place_id: BAKER_221B.id, description: `${BAKER_221B.name}, ${BAKER_221B.formattedAddress}` }] });
    const coords = await post('/googleapis-getcoords', { place_id: BAKER_221B.id });
    expect(coords.json()).toEqual({ coords: { lat: BAKER_221B.lat, lng: BAKER_221B.lng }, address: `${BAKER_221B.name}, ${BAKER_221B.formattedAddress}` });
    expect((await post('/googleapis-getaddress', { latlng: '51.5309,-0.1234' })).json()).toEqual({ address: 'Euston Rd, London N1 9AL, UK' });
    await expectSection7Routes(post, road);
    const unknown = await post('/googleapis-getcoords', { place_id: 'ChIJnoSuchPlace' });
    expect([unknown.statusCode, codeOf(unknown)]).toEqual([422, 'google_places_error']);
    // Every call to the Routes and Places APIs carried the key in its header, never in its URL.
    const newApis = google.requests.filter((request) => request.path !== '/maps/api/geocode/json');
    expect(newApis.length).toBeGreaterThan(0);
    expect(newApis.every((request) => request.headers['x-goog-api-key'] === google.key && !request.query.has('key'))).toBe(true);
  });

  it("carries the web's search session token (sessiontoken) to Google's autocomplete and the chosen place's details", async () => {
    const token = crypto.randomUUID();
    expect((await post('/googleapis-autocomplete', { searchKeyword: '221B', sessiontoken: token })).statusCode).toBe(200);
    expect((await post('/googleapis-autocomplete', { searchKeyword: '221B Baker', sessiontoken: token })).statusCode).toBe(200);
    expect((await post('/googleapis-getcoords', { place_id: BAKER_221B.id, sessiontoken: token })).statusCode).toBe(200);
    const [first, second, details] = google.requests;
    expect([first?.body, second?.body]).toEqual([{ input: '221B', sessionToken: token }, { input: '221B Baker', sessionToken: token }]);
    expect(details?.query.get('sessionToken')).toBe(token);
    // Without one, as before: each call on its own.
    expect((await post('/googleapis-autocomplete', { searchKeyword: 'Paddington' })).statusCode).toBe(200);
    expect(google.requests.at(-1)?.body).toEqual({ input: 'Paddington' });
  });

  it('refuses a session token that is not one (wrong type, too long, not URL-safe) as a malformed request, asking Google nothing', async () => {
    for (const sessiontoken of [42, 'short', 'x'.repeat(37), '../../v1/places:autocomplete', 'a b c d e f g h', '']) {
      for (const [url, payload] of [['/googleapis-autocomplete', { searchKeyword: '221B Baker' }], ['/googleapis-getcoords', { place_id: BAKER_221B.id }]] as const) {
        const response = await post(url, { ...payload, sessiontoken });
        expect([response.statusCode, codeOf(response), response.json<{ error: { field?: string } }>().error.field], `${url} ${String(sessiontoken)}`).toEqual([400, 'validation_error', 'sessiontoken']);
      }
    }
    expect(google.requests).toHaveLength(0);
  });

  it.each<GoogleStandInMode>(['hang', 'fail', 'garbage', 'wrongShape', 'quota', 'blocked'])(
    'Google answering %s: each call answers its spec key with a 4xx, nothing is stored, no 500',
    async (mode) => {
      await t.goOnline(await t.makeUser('driver', { carType: 'Sedan' }));
      google.mode = mode;
      const before = await bookingCount();
      const answers = {
        estimate: await post('/api/estimates', { pickup, drop, carType: 'Sedan' }),
        booking: await post('/api/bookings', { pickup, drop, carType: 'Sedan', payment_mode: 'cash' }),
        drivetime: await post('/googleapis-getdrivetime', { start: '51.5308,-0.1238', dest: '51.5081,-0.0759' }),
        multiloctime: await post('/googleapis-getmultiloctime', { start: '51.5308,-0.1238', waypoints: '51.52,-0.1', dest: '51.5081,-0.0759' }),
        route: await post('/googleapis-getroute', { start: '51.5308,-0.1238', dest: '51.5081,-0.0759' }),
        address: await post('/googleapis-getaddress', { latlng: '51.5081,-0.0759' }),
        autocomplete: await post('/googleapis-autocomplete', { searchKeyword: 'Baker' }),
        coords: await post('/googleapis-getcoords', { place_id: BAKER_221B.id }),
      };
      expect(Object.fromEntries(Object.entries(answers).map(([call, response]) => [call, [response.statusCode, codeOf(response)]]))).toEqual({
        estimate: [422, 'no_route_found'],
        booking: [422, 'no_route_found'],
        drivetime: [422, 'no_route_found'],
        multiloctime: [422, 'no_route_found'],
        route: [422, 'no_route_found'],
        address: [422, 'place_to_coords_error'],
        autocomplete: [422, 'google_places_error'],
        coords: [422, 'google_places_error'],
      });
      for (const response of Object.values(answers)) expect(response.body).not.toContain(google.key);
      expect(await bookingCount()).toBe(before);
    },
  );
});
