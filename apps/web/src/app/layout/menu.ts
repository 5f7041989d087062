import type { User } from '@rideway/contract';

type UserType = User['usertype'];
export type MenuEntry = { to: string; label: string; roles?: readonly UserType[] };

/**
 * Section 2's side menu, in its order, for the screens built so far; each entry names the user
 * types it is for (none: every signed-in user). Logout closes the menu in the drawer itself.
 */
export const MENU: readonly MenuEntry[] = [
  { to: '/', label: 'nav_home' },
  { to: '/bookings', label: 'booking_history' },
  { to: '/profile', label: 'profile' },
];

export const menuFor = (usertype: UserType): MenuEntry[] => MENU.filter((entry) => !entry.roles || entry.roles.includes(usertype));
