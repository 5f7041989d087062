import { describe, expect, it } from 'vitest';
import { bearingDegrees, headingOf, NO_HEADING, trackHeading } from './heading';

const KINGS_CROSS = { lat: 51.5308, lng: -0.1238 };
const north = (from: { lat: number; lng: number }, metres: number) => ({ lat: from.lat + metres / 111_195, lng: from.lng });
const east = (from: { lat: number; lng: number }, metres: number) => ({ lat: from.lat, lng: from.lng + metres / (111_195 * Math.cos((from.lat * Math.PI) / 180)) });

describe('the bearing between two points (degrees clockwise from north)', () => {
  it('reads the four compass points', () => {
    expect(bearingDegrees(KINGS_CROSS, north(KINGS_CROSS, 200))).toBeCloseTo(0, 3);
    expect(bearingDegrees(KINGS_CROSS, east(KINGS_CROSS, 200))).toBeCloseTo(90, 1);
    expect(bearingDegrees(north(KINGS_CROSS, 200), KINGS_CROSS)).toBeCloseTo(180, 3);
    expect(bearingDegrees(east(KINGS_CROSS, 200), KINGS_CROSS)).toBeCloseTo(270, 1);
  });

  it('is the great-circle initial bearing, always in 0..360', () => {
    // London to New York leaves London heading west-north-west (about 288°).
    expect(bearingDegrees({ lat: 51.5074, lng: -0.1278 }, { lat: 40.7128, lng: -74.006 })).toBeCloseTo(288.3, 0);
    // Across the antimeridian eastwards.
    expect(bearingDegrees({ lat: 0, lng: 179.9 }, { lat: 0, lng: -179.9 })).toBeCloseTo(90, 3);
    for (const to of [{ lat: -10, lng: -10 }, { lat: 10, lng: -10 }, { lat: -10, lng: 10 }]) {
      const bearing = bearingDegrees({ lat: 0, lng: 0 }, to);
      expect(bearing).toBeGreaterThanOrEqual(0);
      expect(bearing).toBeLessThan(360);
    }
  });
});

describe('the heading along a path', () => {
  it('is the bearing between the last two distinct positions', () => {
    const a = KINGS_CROSS;
    const b = east(a, 100);
    expect(headingOf([a, b])).toBeCloseTo(90, 1);
    // Repeated fixes of the same place, and jitter of a metre, do not count as a move.
    expect(headingOf([a, b, b, east(b, 1)])).toBeCloseTo(90, 1);
    expect(headingOf([north(a, 300), a, b])).toBeCloseTo(90, 1);
  });

  it('is unknown with fewer than two distinct positions', () => {
    expect(headingOf([])).toBeNull();
    expect(headingOf([KINGS_CROSS])).toBeNull();
    expect(headingOf([KINGS_CROSS, KINGS_CROSS, east(KINGS_CROSS, 2)])).toBeNull();
  });
});

describe('a live car\'s heading, position by position', () => {
  it('takes its first heading from the path driven so far, then from each move', () => {
    const path = [KINGS_CROSS, north(KINGS_CROSS, 100)];
    let track = trackHeading(NO_HEADING, path[1]!, path);
    expect(track.heading).toBeCloseTo(0, 3);
    track = trackHeading(track, east(path[1]!, 80));
    expect(track.heading).toBeCloseTo(90, 1);
  });

  it('keeps its heading while the car stands (jitter) and has none before it has moved', () => {
    let track = trackHeading(NO_HEADING, KINGS_CROSS);
    expect(track).toEqual({ from: KINGS_CROSS, heading: null });
    track = trackHeading(track, east(KINGS_CROSS, 2));
    expect(track.heading).toBeNull();
    const moved = trackHeading(track, north(KINGS_CROSS, 50));
    expect(moved.heading).toBeCloseTo(0, 3);
    expect(trackHeading(moved, east(north(KINGS_CROSS, 50), 3))).toBe(moved);
  });

  it('accumulates slow moves from the last place it moved from', () => {
    let track = trackHeading(NO_HEADING, KINGS_CROSS);
    // Three 3 m steps east: none alone is a move, together they are.
    for (const metres of [3, 6, 9]) track = trackHeading(track, east(KINGS_CROSS, metres));
    expect(track.heading).toBeCloseTo(90, 0);
  });
});
