import { describe, expect, it } from 'vitest';
import { bookLaterDispatchAt, declineOutcome, isPresenceFresh, nextOfferBatch, noTakerCancelAt, rankByRoadTime } from './dispatch';

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

describe('issue 16: candidates ranked by road time to the pickup', () => {
  const leg = (durationSeconds: number) => ({ distanceKm: durationSeconds / 60, durationSeconds });
  it('puts the quickest drive first, whatever the straight-line order', () => {
    // b is second in a straight line but across the river: the road table says a is slower than c.
    const ranked = rankByRoadTime(['a', 'b', 'c'], [leg(600), leg(900), leg(120)]);
    expect(ranked.map((r) => r.candidate)).toEqual(['c', 'a', 'b']);
    expect(ranked[0]?.leg).toEqual(leg(120));
  });
  it('keeps the straight-line order between equal times', () => {
    expect(rankByRoadTime(['a', 'b', 'c'], [leg(300), leg(60), leg(300)]).map((r) => r.candidate)).toEqual(['b', 'a', 'c']);
  });
  it('asks drivers no road joins to the pickup last, in straight-line order', () => {
    const ranked = rankByRoadTime(['a', 'b', 'c', 'd'], [undefined, leg(500), undefined, leg(100)]);
    expect(ranked.map((r) => r.candidate)).toEqual(['d', 'b', 'a', 'c']);
    expect(ranked.at(-1)?.leg).toBeUndefined();
  });
  it('without any leg (the table failed) is the straight-line order', () => {
    expect(rankByRoadTime(['a', 'b'], []).map((r) => r.candidate)).toEqual(['a', 'b']);
  });
});

describe('issue 17: a driver declines an offer', () => {
  const booking = { status: 'NEW', driver: null, requestedDrivers: { a: true as const }, offeredDrivers: ['a', 'b'], declinedDrivers: ['c'] };
  it('withdraws a current offer', () => {
    expect(declineOutcome(booking, 'a')).toBe('withdraw');
  });
  it('records a decline of an offer that already timed out in this search', () => {
    expect(declineOutcome(booking, 'b')).toBe('record');
  });
  it('answers a replay as already declined, even after the trip was taken', () => {
    expect(declineOutcome(booking, 'c')).toBe('already');
    expect(declineOutcome({ ...booking, status: 'ACCEPTED', driver: 'a', requestedDrivers: {} }, 'c')).toBe('already');
  });
  it('is too late once a driver took the trip, for the offered drivers and the taker', () => {
    const taken = { ...booking, status: 'ACCEPTED', driver: 'a', requestedDrivers: {} };
    expect(declineOutcome(taken, 'b')).toBe('too_late');
    expect(declineOutcome(taken, 'a')).toBe('too_late');
  });
  it('is not_offered for a driver never asked', () => {
    expect(declineOutcome(booking, 'z')).toBe('not_offered');
  });
});
