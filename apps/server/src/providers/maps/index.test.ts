import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNominatim } from '../../../test/stand-ins/nominatim';
import { startOsrm } from '../../../test/stand-ins/osrm';
import type { StandIn } from '../../../test/stand-ins/stand-in-server';
import { loadConfig } from '../../config';
import { mapsFromConfig } from '.';
import { mapsUserAgent } from './osm';

const A = { lat: 51.5308, lng: -0.1238 };
const B = { lat: 51.5081, lng: -0.0759 };

describe('the maps adapter selected by the configuration', () => {
  let osrm: StandIn;
  let nominatim: StandIn;
  beforeAll(async () => {
    [osrm, nominatim] = await Promise.all([startOsrm(), startNominatim()]);
  });
  afterAll(async () => {
    await Promise.all([osrm.close(), nominatim.close()]);
  });

  it('is the offline gazetteer by default', async () => {
    const maps = mapsFromConfig(loadConfig({}));
    expect(maps.provider).toBe('offline');
    expect((await maps.route([A, B]))?.approximate).toBe(true);
  });

  it('is OSRM and Nominatim with MAPS_PROVIDER=osm, behind the cache', async () => {
    const maps = mapsFromConfig(loadConfig({ MAPS_PROVIDER: 'osm', OSRM_URL: osrm.url, NOMINATIM_URL: nominatim.url, PUBLIC_URL: 'https://rides.example' }));
    expect(maps.provider).toBe('osm');
    expect((await maps.route([A, B]))?.approximate).toBe(false);
    await maps.route([A, B]);
    expect(osrm.requests).toHaveLength(1);
    await maps.reverseGeocode(B);
    expect(nominatim.requests[0]?.headers['user-agent']).toBe('Rideway/0.1 (https://rides.example)');
  });

  it('asks every time with MAPS_CACHE_S=0, with the configured User-Agent', async () => {
    osrm.requests.length = 0;
    const maps = mapsFromConfig(loadConfig({ MAPS_PROVIDER: 'osm', OSRM_URL: osrm.url, NOMINATIM_URL: nominatim.url, MAPS_CACHE_S: '0', MAPS_USER_AGENT: 'Acme Taxis (ops@acme.example)' }));
    await maps.route([A, B]);
    await maps.route([A, B]);
    expect(osrm.requests.map((request) => request.headers['user-agent'])).toEqual(['Acme Taxis (ops@acme.example)', 'Acme Taxis (ops@acme.example)']);
  });

  it('names the application to the providers', () => {
    expect(mapsUserAgent({ MAPS_USER_AGENT: undefined, PUBLIC_URL: undefined })).toMatch(/^Rideway\/0\.1 \(/);
  });
});
