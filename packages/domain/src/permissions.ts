/**
 * Security-critical: who may open which screen, do what, and see whose objects (sections 2 and
 * 6). Deny by default: a route, capability or object not granted here is refused. The server
 * enforces these; the web only hides what they refuse.
 */
import type { BookingStatus, UserType } from './booking-status';

/** Section 2: protected routes and the user types allowed on each. */
export const PROTECTED_ROUTES = {
  '/bookings': ['rider', 'admin', 'driver', 'fleetadmin'],
  '/profile': ['rider', 'admin', 'driver', 'fleetadmin'],
  '/dashboard': ['admin', 'fleetadmin'],
  '/cartypes': ['admin'],
  '/cancelreasons': ['admin'],
  '/addbookings': ['admin'],
  '/promos': ['admin'],
  '/riders': ['admin'],
  '/drivers': ['admin', 'fleetadmin'],
  '/fleetadmins': ['admin'],
  '/driverearning': ['admin', 'fleetadmin'],
  '/notifications': ['admin'],
  '/earningreports': ['admin'],
  '/addtowallet': ['admin'],
  '/withdraws': ['admin'],
  '/settings': ['admin'],
  // Issue 18: the payment providers, their webhook addresses and their latest notifications.
  '/payments': ['admin'],
  // Issue 19: the outbox's mail, SMS and push, with delivery failures an admin sends again.
  '/messages': ['admin'],
  // Issue 20: a driver's own documents, and their review by an admin or the driver's fleet admin.
  '/documents': ['driver'],
  '/documentreview': ['admin', 'fleetadmin'],
  // Issue 23 point 8: every admin's and fleet admin's change, with the values before and after.
  '/audit': ['admin'],
} as const satisfies Record<string, readonly UserType[]>;
export type ProtectedRoute = keyof typeof PROTECTED_ROUTES;

/** Section 2: public routes. */
export const PUBLIC_ROUTES = ['/', '/about-us', '/privacy-policy', '/register', '/login'] as const;
type PublicRoute = (typeof PUBLIC_ROUTES)[number];
export type AppRoute = ProtectedRoute | PublicRoute;

export const isProtectedRoute = (path: string): path is ProtectedRoute => Object.hasOwn(PROTECTED_ROUTES, path);

/** Section 2: may this user (null when signed out) open this route? Unknown routes are refused. */
export function canOpenRoute(path: string, usertype: UserType | null): boolean {
  if ((PUBLIC_ROUTES as readonly string[]).includes(path)) return true;
  if (!isProtectedRoute(path) || usertype === null) return false;
  return (PROTECTED_ROUTES[path] as readonly UserType[]).includes(usertype);
}

/** Section 2: where a user lands after signing in. */
export const landingRouteAfterLogin = (usertype: UserType): AppRoute =>
  usertype === 'admin' || usertype === 'fleetadmin' ? '/dashboard' : usertype === 'driver' ? '/bookings' : '/';

/** Section 2: the hero's booking form shows to visitors, riders and admins; others see the slogan. */
export const showsHeroBookingForm = (usertype: UserType | null): boolean =>
  usertype === null || usertype === 'rider' || usertype === 'admin';

export type MenuItem = { key: string; path: AppRoute } | { key: string; children: { key: string; path: AppRoute }[] };

/** Section 2: the side menu for a role, in order. Logout is an action, not a route. */
export function sideMenuFor(usertype: UserType): { items: MenuItem[]; logout: true } {
  const admin = usertype === 'admin';
  const fleet = usertype === 'fleetadmin';
  const items: (MenuItem | false)[] = [
    { key: 'home', path: '/' },
    (admin || fleet) && { key: 'dashboard', path: '/dashboard' },
    { key: 'booking_history', path: '/bookings' },
    admin && { key: 'add_booking', path: '/addbookings' },
    fleet && { key: 'drivers', path: '/drivers' },
    (admin || fleet) && { key: 'document_review', path: '/documentreview' },
    usertype === 'driver' && { key: 'documents', path: '/documents' },
    admin && {
      key: 'users',
      children: [
        { key: 'riders', path: '/riders' },
        { key: 'drivers', path: '/drivers' },
        { key: 'fleetadmins', path: '/fleetadmins' },
      ],
    },
    admin && { key: 'car_types', path: '/cartypes' },
    admin && { key: 'cancellation_reasons', path: '/cancelreasons' },
    // Section 2's 'Earning reports' entry of a fleet admin opens driver earnings, and is named as that page is (issue 17).
    fleet && { key: 'driver_earning', path: '/driverearning' },
    admin && {
      key: 'wallet',
      children: [
        { key: 'earning_reports', path: '/earningreports' },
        { key: 'driver_earning', path: '/driverearning' },
        { key: 'add_to_wallet', path: '/addtowallet' },
        { key: 'withdraws', path: '/withdraws' },
        { key: 'payments', path: '/payments' },
      ],
    },
    admin && { key: 'promos', path: '/promos' },
    admin && { key: 'push_notifications', path: '/notifications' },
    admin && { key: 'messages', path: '/messages' },
    admin && { key: 'audit_log', path: '/audit' },
    admin && { key: 'settings', path: '/settings' },
    { key: 'profile', path: '/profile' },
  ];
  return { items: items.filter((item): item is MenuItem => item !== false), logout: true };
}

/** Section 6: what each role may do. */
export const CAPABILITIES = [
  'booking:create',
  'booking:createForRider',
  'booking:cancel',
  'booking:assign',
  'booking:runTrip',
  'booking:pay',
  'booking:complete',
  'dashboard:view',
  'users:manage',
  'drivers:manageOwn',
  'cartypes:manage',
  'promos:manage',
  'cancelreasons:manage',
  'notifications:send',
  'wallet:credit',
  'withdraws:request',
  'withdraws:manage',
  'settings:manage',
  'reports:earnings',
  'reports:driverEarnings',
  'outbox:read',
  'profile:edit',
] as const;
type Capability = (typeof CAPABILITIES)[number];

export const ROLE_CAPABILITIES: Readonly<Record<UserType, readonly Capability[]>> = {
  rider: ['booking:create', 'booking:cancel', 'booking:pay', 'booking:complete', 'profile:edit'],
  driver: ['booking:runTrip', 'booking:pay', 'withdraws:request', 'profile:edit'],
  fleetadmin: ['dashboard:view', 'drivers:manageOwn', 'reports:driverEarnings', 'profile:edit'],
  admin: [
    'booking:createForRider',
    'booking:cancel',
    'booking:assign',
    'dashboard:view',
    'users:manage',
    'cartypes:manage',
    'promos:manage',
    'cancelreasons:manage',
    'notifications:send',
    'wallet:credit',
    'withdraws:manage',
    'settings:manage',
    'reports:earnings',
    'reports:driverEarnings',
    'outbox:read',
    'profile:edit',
  ],
};

export const can = (usertype: UserType, capability: Capability): boolean =>
  ROLE_CAPABILITIES[usertype].includes(capability);

/** Section 6: the edits demo mode blocks with demo_mode. Promo add and user edit stay allowed. */
export const CRITICAL_EDITS = [
  'cartype:add',
  'cartype:update',
  'cartype:delete',
  'promo:update',
  'promo:delete',
  'settings:update',
  'user:delete',
  'booking:cancel',
  'notification:send',
  // Not section 6's own: a visitor signed in with a published demo login could bind its own
  // authenticator, or suspend the demo's users, and lock everyone else out (issue 20 review).
  'two-factor:change',
  'user:approval',
] as const;
export type CriticalEdit = (typeof CRITICAL_EDITS)[number];

/** Section 6: demo mode is on when AllowCriticalEditsAdmin is false. */
export const isDemoMode = (settings: { AllowCriticalEditsAdmin: boolean }): boolean => !settings.AllowCriticalEditsAdmin;

export const isBlockedInDemoMode = (edit: string, settings: { AllowCriticalEditsAdmin: boolean }): boolean =>
  isDemoMode(settings) && (CRITICAL_EDITS as readonly string[]).includes(edit);

const HIDDEN_EMAIL = 'Hidden for Demo';
const HIDDEN_MOBILE = 'Hidden';

/** Section 6: in demo mode emails and mobiles show as 'Hidden for Demo' and 'Hidden'. */
export function maskContactForDemo<T extends { email?: string | null; mobile?: string | null }>(
  user: T,
  settings: { AllowCriticalEditsAdmin: boolean },
): T {
  if (!isDemoMode(settings)) return user;
  return { ...user, email: HIDDEN_EMAIL, mobile: HIDDEN_MOBILE };
}

export type Viewer = { uid: string; usertype: UserType };

export type BookingOwnership = {
  status: BookingStatus;
  customer: string;
  driver?: string | null;
  fleetadmin?: string | null;
  requestedDrivers?: Readonly<Record<string, true>> | null;
};

/**
 * Section 6 booking visibility: admins see all; riders their own; drivers their trips and the
 * NEW tasks that request them; fleet admins the bookings carrying their id. A booking outside
 * this is answered as missing (404), never as forbidden, so its existence does not leak.
 */
export function canViewBooking(viewer: Viewer, booking: BookingOwnership): boolean {
  switch (viewer.usertype) {
    case 'admin':
      return true;
    case 'rider':
      return booking.customer === viewer.uid;
    case 'driver':
      return (
        (booking.driver != null && booking.driver === viewer.uid) ||
        (booking.status === 'NEW' && booking.requestedDrivers?.[viewer.uid] === true)
      );
    case 'fleetadmin':
      return booking.fleetadmin != null && booking.fleetadmin === viewer.uid;
  }
}

type UserOwnership = { uid: string; usertype: UserType; fleetadmin?: string | null };

/**
 * Section 6 user management: admins manage riders, drivers and fleet admins; a fleet admin
 * manages only drivers with its own uid as fleetadmin; everyone manages their own record.
 */
export function canManageUser(viewer: Viewer, target: UserOwnership): boolean {
  if (viewer.uid === target.uid) return true;
  if (viewer.usertype === 'admin') return target.usertype !== 'admin';
  if (viewer.usertype === 'fleetadmin') return target.usertype === 'driver' && target.fleetadmin === viewer.uid;
  return false;
}

/** Section 6: the user types a role may add (a fleet admin's drivers get its uid as fleetadmin). */
export function userTypesAddableBy(usertype: UserType): readonly UserType[] {
  if (usertype === 'admin') return ['rider', 'driver', 'fleetadmin'];
  if (usertype === 'fleetadmin') return ['driver'];
  return [];
}
