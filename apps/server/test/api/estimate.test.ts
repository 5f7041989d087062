import { fareFor, kmToMiles } from '@rideway/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offlineMaps } from '../../src/providers/maps/offline';
import type { UserRow } from '../../src/modules/users/accounts';
import { drop, pickup, sedan } from '../fixtures';
import { codeOf, createTestApp, ENGINES, type TestApp } from '../harness';


describe.each(ENGINES)('estimates and the section 7 maps paths on %s', (engine) => {
  let t: TestApp;
  let rider: UserRow;
  let admin: UserRow;
  beforeAll(async () => {
    t = await createTestApp(engine);
    rider = await t.makeUser('rider');
    admin = await t.makeUser('admin');
    await t.request({ method: 'POST', url: '/api/cartypes', as: admin, payload: { ...sedan, parcelTypes: [{ description: 'Envelope', amount: 1 }, { description: 'Box', amount: 3 }], options: [{ description: 'Fragile', amount: 2 }] } });
  });
  afterAll(() => t.close());

  it('estimates a taxi trip with the domain fare over the maps route (km, seconds)', async () => {
    const route = await offlineMaps().route([pickup, drop]);
    const response = await t.request({ method: 'POST', url: '/api/estimates', as: rider, payload: { pickup, drop, carType: 'Sedan' } });
    expect(response.statusCode).toBe(200);
    const expected = fareFor(sedan, { distance: route?.distanceKm ?? 0, duration: route?.durationSeconds ?? 0 });
    expect(response.json()).toMatchObject({
      estimateFare: expected.grandTotal,
      totalCost: expected.totalCost,
      convenience_fees: expected.convenience_fees,
      distance: route?.distanceKm,
      duration: route?.durationSeconds,
      approximate: true,
    });
  });

  it('measures in miles when convert_to_mile, and adds parcel type and option in delivery mode', async () => {
    await t.setSettings({ convert_to_mile: true, appcat: 'delivery' });
    const route = await offlineMaps().route([pickup, drop]);
    const miles = Math.round(kmToMiles(route?.distanceKm ?? 0) * 1000) / 1000;
    const response = await t.request({ method: 'POST', url: '/api/estimates', as: rider, payload: { pickup, drop, carType: 'Sedan', parcelTypeIndex: 1, optionIndex: 0 } });
    const expected = fareFor(sedan, { distance: miles, duration: route?.durationSeconds ?? 0 }, { parcel: { amount: 3 }, option: { amount: 2 } });
    expect(response.json()).toMatchObject({ distance: miles, estimateFare: expected.grandTotal });
    expect(codeOf(await t.request({ method: 'POST', url: '/api/estimates', as: rider, payload: { pickup, drop, carType: 'Sedan', parcelTypeIndex: 5 } }))).toBe('select_proper');
    await t.setSettings({});
  });

  it('refuses missing places and car types (select_proper) and routes that do not exist (No Route Found)', async () => {
    expect(codeOf(await t.request({ method: 'POST', url: '/api/estimates', as: rider, payload: { drop, carType: 'Sedan' } }))).toBe('select_proper');
    expect(codeOf(await t.request({ method: 'POST', url: '/api/estimates', as: rider, payload: { pickup, drop, carType: 'Boat' } }))).toBe('select_proper');
    const ocean = await t.request({ method: 'POST', url: '/api/estimates', as: rider, payload: { pickup, drop: { lat: 40.7, lng: -74, add: 'New York' }, carType: 'Sedan' } });
    expect([ocean.statusCode, ocean.json().error]).toEqual([422, { code: 'no_route_found', message: 'No Route Found' }]);
  });

  it('answers the section 7 maps calls with their payloads, Bearer required', async () => {
    expect((await t.request({ method: 'POST', url: '/googleapis-autocomplete', payload: { searchKeyword: 'Tower' } })).statusCode).toBe(401);
    const search = (await t.request({ method: 'POST', url: '/googleapis-autocomplete', as: rider, payload: { searchKeyword: 'Tower of' } })).json();
    expect(search.searchResults[0]).toEqual({ place_id: expect.stringMatching(/^demo:/), description: 'Tower of London, London' });
    const coords = (await t.request({ method: 'POST', url: '/googleapis-getcoords', as: rider, payload: { place_id: search.searchResults[0].place_id } })).json();
    expect(coords.coords).toEqual({ lat: 51.5081, lng: -0.0759 });
    expect((await t.request({ method: 'POST', url: '/googleapis-getaddress', as: rider, payload: { latlng: '51.5081,-0.0759' } })).json()).toEqual({ address: 'Tower of London, London' });
    const drive = (await t.request({ method: 'POST', url: '/googleapis-getdrivetime', as: rider, payload: { start: '51.5308,-0.1238', dest: '51.5081,-0.0759' } })).json();
    expect(drive.distance_in_km).toBeGreaterThan(4);
    const multi = (await t.request({ method: 'POST', url: '/googleapis-getmultiloctime', as: rider, payload: { start: '51.5308,-0.1238', dest: '51.5081,-0.0759', waypoints: '51.52,-0.1|51.515,-0.09' } })).json();
    expect(multi.distance_in_km).toBeGreaterThan(drive.distance_in_km);
    const route = (await t.request({ method: 'POST', url: '/googleapis-getroute', as: rider, payload: { start: '51.5308,-0.1238', dest: '51.5081,-0.0759' } })).json();
    expect(route).toMatchObject({ distance: drive.distance_in_km, duration: drive.time_in_secs, polylinePoints: expect.any(String) });
    const none = await t.request({ method: 'POST', url: '/googleapis-getroute', as: rider, payload: { start: '51.5,-0.12', dest: '40.7,-74' } });
    expect(none.json().error.message).toBe('No Route Found');
    expect(codeOf(await t.request({ method: 'POST', url: '/googleapis-getaddress', as: rider, payload: { latlng: 'here' } }))).toBe('place_to_coords_error');
    expect(codeOf(await t.request({ method: 'POST', url: '/googleapis-getcoords', as: rider, payload: { place_id: 'nowhere' } }))).toBe('google_places_error');
  });
});
