import type { PushPayload } from '@rideway/contract';
import { PUSH_SCREENS, type PushScreen } from '@rideway/domain';

/**
 * Issue 19: the web route a push message opens, from section 2's target screen and its params.
 * Used by the service worker (a notification's click) and by the inbox (a row's click), so both
 * open the same place. Always a path of this site: a param is one encoded path segment, never a
 * URL, so a message cannot send the user elsewhere.
 */

/** Where a message with no screen, or one missing its booking, opens: every role's booking list. */
export const DEFAULT_TARGET = '/bookings';

const bookingPath = (bookingId: string | undefined, hash = ''): string =>
  bookingId ? `/bookings/${encodeURIComponent(bookingId)}${hash}` : DEFAULT_TARGET;

const TARGETS: Record<PushScreen, (params: Record<string, string>) => string> = {
  // The rider's booking, before and after a driver took it: the booking's own page.
  BookingCab: (params) => bookingPath(params.bookingId),
  BookedCab: (params) => bookingPath(params.bookingId),
  // The chat is a panel of the booking's page.
  onlineChat: (params) => bookingPath(params.bookingId, '#chat-title'),
  // The wallet's balance and history are on the profile page (section 2 has no wallet route for riders and drivers).
  wallet: () => '/profile',
  // The driver's offers are on the driver's home, the booking list.
  DriverTrips: () => '/bookings#offers-title',
};

export function pushTargetPath(payload: Pick<PushPayload, 'screen' | 'params'>): string {
  return payload.screen ? TARGETS[payload.screen](payload.params ?? {}) : DEFAULT_TARGET;
}

const isScreen = (value: unknown): value is PushScreen => typeof value === 'string' && (PUSH_SCREENS as readonly string[]).includes(value);

const isStringRecord = (value: unknown): value is Record<string, string> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((entry) => typeof entry === 'string');

/**
 * A push message's data as the server's relay sends it (the outbox row's payload as JSON), read
 * without trusting it: null when it is not section 7's shape (title and msg strings), and an
 * unknown screen or malformed params are left out rather than followed.
 */
export function readPushPayload(data: unknown): PushPayload | null {
  if (typeof data !== 'object' || data === null) return null;
  const { title, msg, screen, params } = data as Record<string, unknown>;
  if (typeof title !== 'string' || typeof msg !== 'string') return null;
  return { title, msg, ...(isScreen(screen) ? { screen } : {}), ...(isStringRecord(params) ? { params } : {}) };
}
