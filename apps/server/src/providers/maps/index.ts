import type { Config } from '../../config';
import { cachedMaps } from './cache';
import { googleMaps } from './google';
import { offlineMaps } from './offline';
import { osmMaps, osmOptions } from './osm';
import type { MapsPort } from './port';

/**
 * The maps adapter the configuration selects (MAPS_PROVIDER). The offline one is the embedded
 * default and asks no one; its gazetteer (135,000 cities) is read on its first search, so a
 * server on a real provider never loads it. Real providers answer through the short-lived cache
 * (MAPS_CACHE_S).
 */
export function mapsFromConfig(config: Config): MapsPort {
  switch (config.MAPS_PROVIDER) {
    case 'offline':
      return offlineMaps();
    case 'osm':
      return cachedMaps(osmMaps(osmOptions(config)), { ttlSeconds: config.MAPS_CACHE_S });
    // The google adapter (google.ts and its GOOGLE_* settings). What it may keep is Google's terms'
    // call: google.ts wraps itself in cachedMaps with the `calls` they allow, if any.
    case 'google':
      return googleMaps(config);
  }
}
