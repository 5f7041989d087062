import type { User } from '@rideway/contract';

/** Section 2: after sign-in admins and fleet admins go to the dashboard, drivers to their bookings. */
export function homeAfterSignIn(usertype: User['usertype']): string {
  if (usertype === 'admin' || usertype === 'fleetadmin') return '/dashboard';
  if (usertype === 'driver') return '/bookings';
  return '/';
}
