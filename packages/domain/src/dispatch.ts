/**
 * Issue 5 dispatch rules: a NEW booking is offered to the nearest available drivers in small
 * batches; each batch waits a while, then the next nearest are asked, until someone accepts
 * or nobody has taken the booking for too long.
 */

/** The reason recorded on a booking that no driver took in time. */
export const NO_TAKER_REASON = 'No driver accepted the booking in time';

/**
 * The next batch of offers: the nearest candidates not offered before in this booking's search.
 * When every candidate in range was already asked, the search starts again from the nearest
 * (drivers free up and come online while a booking waits).
 */
export function nextOfferBatch(
  nearestFirst: readonly string[],
  alreadyOffered: readonly string[],
  batchSize: number,
): { offer: string[]; restarted: boolean } {
  const size = Math.max(1, Math.floor(batchSize));
  const asked = new Set(alreadyOffered);
  const fresh = nearestFirst.filter((uid) => !asked.has(uid));
  if (fresh.length > 0) return { offer: fresh.slice(0, size), restarted: false };
  return { offer: nearestFirst.slice(0, size), restarted: nearestFirst.length > 0 };
}

/** A driver who has not reported a position for `timeoutMs` drops out of availability (0: never). */
export const isPresenceFresh = (lastSeen: number, now: number, timeoutMs: number): boolean =>
  timeoutMs <= 0 || now - lastSeen <= timeoutMs;

/** When a book-later booking's search starts: `aheadMs` before its tripdate, never in the past. */
export const bookLaterDispatchAt = (tripdate: number, now: number, aheadMs: number): number => Math.max(now, tripdate - aheadMs);

/** When a booking nobody took is cancelled: `afterMs` after its search starts (book now) or after its tripdate (book later). */
export const noTakerCancelAt = (booking: { bookLater: boolean; tripdate: number }, searchStartedAt: number, afterMs: number): number =>
  (booking.bookLater ? Math.max(booking.tripdate, searchStartedAt) : searchStartedAt) + afterMs;

/** A road leg: the driving distance in km and time in seconds (a cell of the maps route table). */
export type RoadLeg = { distanceKm: number; durationSeconds: number };

/**
 * Issue 16: candidates, nearest first in a straight line, ranked by driving time to the pickup
 * (`legs[i]` is candidate i's leg). Equal times keep the straight-line order. A driver no road
 * joins to the pickup (no leg) goes last, still in straight-line order: it is in range by the
 * section 5 rule, so it is not dropped, only asked after everyone who can drive there (decisions.md).
 */
export function rankByRoadTime<T>(nearestFirst: readonly T[], legs: readonly (RoadLeg | undefined)[]): { candidate: T; leg: RoadLeg | undefined }[] {
  return nearestFirst
    .map((candidate, index) => ({ candidate, leg: legs[index], index }))
    .sort((a, b) => {
      if (a.leg && b.leg) return a.leg.durationSeconds - b.leg.durationSeconds || a.index - b.index;
      if (a.leg || b.leg) return a.leg ? -1 : 1;
      return a.index - b.index;
    })
    .map(({ candidate, leg }) => ({ candidate, leg }));
}

/** What a booking's offers say of one driver, for a decline. */
type OfferFacts = {
  status: string;
  driver: string | null;
  requestedDrivers: Readonly<Record<string, true>>;
  offeredDrivers: readonly string[];
  declinedDrivers: readonly string[];
};

/**
 * Issue 17: what a driver's decline does. `withdraw`: the driver is offered the trip now and
 * leaves the offer at once. `record`: the driver's offer of this search already timed out; the
 * decline still keeps it from being offered again. `already`: declined before (a replay answers
 * the same). `too_late`: the trip was taken (or is no longer searching). `not_offered`: this
 * driver was never asked, which answers like a stranger's booking.
 */
export function declineOutcome(booking: OfferFacts, uid: string): 'withdraw' | 'record' | 'already' | 'too_late' | 'not_offered' {
  const searching = booking.status === 'NEW';
  // First: an admin may offer the trip again to a driver who declined it; that offer is declined anew.
  if (searching && booking.requestedDrivers[uid] === true) return 'withdraw';
  if (booking.declinedDrivers.includes(uid)) return 'already';
  if (booking.driver === uid || booking.offeredDrivers.includes(uid)) return searching ? 'record' : 'too_late';
  return 'not_offered';
}
