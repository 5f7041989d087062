import { useEffect } from 'react';
import { enableWebPush } from '../api/push';

/**
 * Issue 19: once signed in, a browser whose permission was already granted is subscribed again
 * for this user (after a sign-out and sign-in, or a change of the server's keys). It never asks:
 * the app asks only when a driver goes online or a rider has booked.
 */
export function useWebPushSync(uid: string | undefined): void {
  useEffect(() => {
    if (uid) void enableWebPush({ ask: false });
  }, [uid]);
}
