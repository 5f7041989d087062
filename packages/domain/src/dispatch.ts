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
