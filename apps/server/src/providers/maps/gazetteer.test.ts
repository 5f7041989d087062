import { describe, expect, it } from 'vitest';
import { DEMO_PLACES } from './demo-places';
import { buildGazetteer, encodeGazetteer, gazetteerFromFile, normalise } from './gazetteer';

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

  it("reads back from the build's file exactly as built", () => {
    const file = encodeGazetteer();
    const read = gazetteerFromFile(file);
    expect(read.size).toBe(gazetteer.size);
    for (const index of [0, 17, DEMO_PLACES.length, 1234, 99_999, gazetteer.size - 1]) expect(read.place(index)).toEqual(gazetteer.place(index));
    for (const wanted of ['san j', 'sao paulo', 'kings', 'zurich', 'москва']) expect(read.search(normalise(wanted), 8)).toEqual(gazetteer.search(normalise(wanted), 8));
    expect(read.indexOfId('city:2643743')).toBe(gazetteer.indexOfId('city:2643743'));
    // A file of another version is refused, not misread.
    const other = Buffer.from(file);
    other.write(other.subarray(4, 4 + other.readUInt32LE(0)).toString('utf8').replace('"version":1', '"version":9'), 4, 'utf8');
    expect(() => gazetteerFromFile(other)).toThrow(/version 9/);
  });
});
