/**
 * Security-critical: who may follow which live topic (issue 5, API.md "Realtime"). Each topic is
 * authorized on subscribe with the same ownership rules as the HTTP API.
 */
import type { BookingStatus } from './booking-status';
import { canViewBooking, type BookingOwnership, type Viewer } from './permissions';

export type Topic =
  | { kind: 'booking' | 'tracking' | 'chat'; bookingId: string }
  | { kind: 'drivers:live' }
  | { kind: 'user'; uid: string };

const BOOKING_TOPIC = /^(booking|tracking|chat):([A-Za-z0-9-]{1,64})$/;

/** A topic as a client names it; `user:me` is the caller's own. Anything else is undefined. */
export function parseTopic(name: unknown, viewerUid: string): Topic | undefined {
  if (typeof name !== 'string' || name.length > 80) return undefined;
  if (name === 'drivers:live') return { kind: 'drivers:live' };
  if (name === 'user:me') return { kind: 'user', uid: viewerUid };
  if (name.startsWith('user:')) return { kind: 'user', uid: name.slice('user:'.length) };
  const match = BOOKING_TOPIC.exec(name);
  if (!match?.[1] || !match[2]) return undefined;
  return { kind: match[1] as 'booking' | 'tracking' | 'chat', bookingId: match[2] };
}

/** The topic's name on the wire and in the event log. */
export function topicName(topic: Topic): string {
  switch (topic.kind) {
    case 'drivers:live':
      return 'drivers:live';
    case 'user':
      return `user:${topic.uid}`;
    default:
      return `${topic.kind}:${topic.bookingId}`;
  }
}

/** Section 3 chat: between a booking's rider and its driver, and nobody else. */
export const isChatParty = (viewer: Viewer, booking: BookingOwnership): boolean =>
  (viewer.usertype === 'rider' && viewer.uid === booking.customer) ||
  (viewer.usertype === 'driver' && booking.driver != null && viewer.uid === booking.driver);

/** Chat is open while a driver is on the booking and the trip is not over. */
const CHAT_OPEN_STATUSES = ['ACCEPTED', 'ARRIVED', 'STARTED', 'REACHED', 'PENDING', 'PAID'] as const satisfies readonly BookingStatus[];
export const isChatOpen = (status: BookingStatus): boolean => (CHAT_OPEN_STATUSES as readonly BookingStatus[]).includes(status);

/** API.md: tracking is for the trip's parties, their fleet admin and admins. */
export const canViewTracking = (viewer: Viewer, booking: BookingOwnership): boolean =>
  viewer.usertype === 'admin' ||
  (viewer.usertype === 'fleetadmin' && booking.fleetadmin != null && booking.fleetadmin === viewer.uid) ||
  viewer.uid === booking.customer ||
  (booking.driver != null && viewer.uid === booking.driver);

/**
 * May this viewer follow this topic? `booking` is the booking a booking topic names (undefined
 * when it does not exist, which refuses like a stranger's booking).
 */
export function canSubscribe(viewer: Viewer, topic: Topic, booking?: BookingOwnership): boolean {
  switch (topic.kind) {
    case 'user':
      return topic.uid === viewer.uid;
    case 'drivers:live':
      return viewer.usertype === 'admin' || viewer.usertype === 'fleetadmin';
    case 'booking':
      return booking !== undefined && canViewBooking(viewer, booking);
    case 'tracking':
      return booking !== undefined && canViewTracking(viewer, booking);
    case 'chat':
      return booking !== undefined && isChatParty(viewer, booking);
  }
}
