import { describe, expect, it } from 'vitest';
import { appendRating, averageRating } from './ratings';

describe('section 4 COMPLETE and section 9: ratings average to 1 decimal', () => {
  it('averages and rounds half away from zero', () => {
    expect(averageRating([])).toBe(0);
    expect(averageRating([{ user: 'a', rate: 5 }, { user: 'b', rate: 4 }])).toBe(4.5);
    expect(averageRating([{ user: 'a', rate: 5 }, { user: 'b', rate: 4 }, { user: 'c', rate: 4 }])).toBe(4.3);
    // 4.25 exactly: half away from zero gives 4.3.
    expect(averageRating([5, 4, 4, 4].map((rate, i) => ({ user: String(i), rate })))).toBe(4.3);
  });

  it('appends the rating and recomputes the average, leaving the old record unchanged', () => {
    const before = { userrating: 5, details: [{ user: 'a', rate: 5 }] };
    const after = appendRating(before, { user: 'b', rate: 2 });
    expect(after).toEqual({ userrating: 3.5, details: [{ user: 'a', rate: 5 }, { user: 'b', rate: 2 }] });
    expect(before.details).toHaveLength(1);
    expect(appendRating(undefined, { user: 'a', rate: 4 })).toEqual({ userrating: 4, details: [{ user: 'a', rate: 4 }] });
  });
});
