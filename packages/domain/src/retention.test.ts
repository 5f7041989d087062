import { describe, expect, it } from 'vitest';
import { historyCutoff, retainedRoute } from './retention';

const DAY_MS = 24 * 60 * 60 * 1000;

describe('location history retention (issue 20 point 4)', () => {
  it('keeps a short route as it is', () => {
    expect(retainedRoute([])).toEqual([]);
    expect(retainedRoute([1])).toEqual([1]);
    expect(retainedRoute([1, 2])).toEqual([1, 2]);
    const twenty = Array.from({ length: 27 }, (_, i) => i);
    expect(retainedRoute(twenty)).toEqual(twenty);
  });

  it('keeps the first and last points and thins the ones between to 25 at most', () => {
    const points = Array.from({ length: 1000 }, (_, i) => i);
    const kept = retainedRoute(points);
    expect(kept[0]).toBe(0);
    expect(kept.at(-1)).toBe(999);
    expect(kept.length).toBeLessThanOrEqual(27);
    expect(kept.length).toBeGreaterThan(20);
    // In order, each kept once.
    expect([...kept].sort((a, b) => a - b)).toEqual(kept);
    expect(new Set(kept).size).toBe(kept.length);
  });

  it('the cutoff is the period before now', () => {
    expect(historyCutoff(1000 * DAY_MS, 730)).toBe(270 * DAY_MS);
  });
});
