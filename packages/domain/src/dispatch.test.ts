import { describe, expect, it } from 'vitest';
import { bookLaterDispatchAt, isPresenceFresh, nextOfferBatch, noTakerCancelAt } from './dispatch';

describe('issue 5: offers go out in batches, nearest first', () => {
  it('offers the nearest drivers not asked before', () => {
    expect(nextOfferBatch(['a', 'b', 'c', 'd', 'e'], [], 2)).toEqual({ offer: ['a', 'b'], restarted: false });
    expect(nextOfferBatch(['a', 'b', 'c', 'd', 'e'], ['a', 'b'], 2)).toEqual({ offer: ['c', 'd'], restarted: false });
    expect(nextOfferBatch(['a', 'b', 'c', 'd', 'e'], ['a', 'b', 'c', 'd'], 2)).toEqual({ offer: ['e'], restarted: false });
  });
  it('starts again from the nearest once everyone in range was asked', () => {
    expect(nextOfferBatch(['a', 'b'], ['a', 'b'], 3)).toEqual({ offer: ['a', 'b'], restarted: true });
  });
  it('offers nothing when nobody is in range', () => {
    expect(nextOfferBatch([], ['a'], 3)).toEqual({ offer: [], restarted: false });
  });
  it('keeps a batch at least one driver wide', () => {
    expect(nextOfferBatch(['a', 'b'], [], 0)).toEqual({ offer: ['a'], restarted: false });
  });
});

describe('issue 5: a silent driver drops out of availability', () => {
  it('is fresh within the timeout and stale after it', () => {
    expect(isPresenceFresh(1000, 61_000, 60_000)).toBe(true);
    expect(isPresenceFresh(1000, 61_001, 60_000)).toBe(false);
  });
  it('never goes stale with a timeout of 0', () => {
    expect(isPresenceFresh(0, 10 ** 12, 0)).toBe(true);
  });
});

describe('issue 5: book-later searches and no-taker cancellation', () => {
  it('starts a book-later search ahead of the tripdate, never in the past', () => {
    expect(bookLaterDispatchAt(100_000, 0, 30_000)).toBe(70_000);
    expect(bookLaterDispatchAt(100_000, 90_000, 30_000)).toBe(90_000);
  });
  it('cancels a book-now booking a while after its search started', () => {
    expect(noTakerCancelAt({ bookLater: false, tripdate: 5 }, 1000, 300)).toBe(1300);
  });
  it('cancels a book-later booking a while after its tripdate', () => {
    expect(noTakerCancelAt({ bookLater: true, tripdate: 5000 }, 1000, 300)).toBe(5300);
  });
});
