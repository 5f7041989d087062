import { describe, expect, it } from 'vitest';
import { USER_TYPES, type UserType } from './booking-status';
import {
  can,
  canManageUser,
  canOpenRoute,
  canViewBooking,
  CAPABILITIES,
  CRITICAL_EDITS,
  isBlockedInDemoMode,
  landingRouteAfterLogin,
  maskContactForDemo,
  PROTECTED_ROUTES,
  PUBLIC_ROUTES,
  ROLE_CAPABILITIES,
  showsHeroBookingForm,
  sideMenuFor,
  userTypesAddableBy,
  type MenuItem,
} from './permissions';

describe('section 2: protected routes and their user types', () => {
  const table: Record<string, UserType[]> = {
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
    // Issue 18 adds the payments page to section 2's sixteen.
    '/payments': ['admin'],
    // Issue 19: the admins' Messages screen over the outbox.
    '/messages': ['admin'],
    // Issue 20: drivers' documents and their review.
    '/documents': ['driver'],
    '/documentreview': ['admin', 'fleetadmin'],
    // Issue 23 point 8: the audit log.
    '/audit': ['admin'],
  };

  it('lists exactly the sixteen routes of the spec, issue 18\'s payments page, issue 19\'s messages page and issue 23\'s audit log', () => {
    expect(Object.keys(PROTECTED_ROUTES).sort()).toEqual(Object.keys(table).sort());
  });

  for (const [route, allowed] of Object.entries(table)) {
    it(`${route}: ${allowed.join(', ')}; anyone else and signed-out visitors go to /login`, () => {
      for (const usertype of USER_TYPES) expect(canOpenRoute(route, usertype)).toBe(allowed.includes(usertype));
      expect(canOpenRoute(route, null)).toBe(false);
    });
  }

  it('opens public routes to everyone, refuses unknown routes', () => {
    for (const route of PUBLIC_ROUTES) {
      expect(canOpenRoute(route, null)).toBe(true);
      expect(canOpenRoute(route, 'driver')).toBe(true);
    }
    expect(canOpenRoute('/admin-secret', 'admin')).toBe(false);
    expect(canOpenRoute('/toString', 'admin')).toBe(false);
  });

  it('lands admin and fleetadmin on /dashboard, driver on /bookings, others on /', () => {
    expect(landingRouteAfterLogin('admin')).toBe('/dashboard');
    expect(landingRouteAfterLogin('fleetadmin')).toBe('/dashboard');
    expect(landingRouteAfterLogin('driver')).toBe('/bookings');
    expect(landingRouteAfterLogin('rider')).toBe('/');
  });

  it('shows the hero booking form to visitors, riders and admins only', () => {
    expect(showsHeroBookingForm(null)).toBe(true);
    expect(showsHeroBookingForm('rider')).toBe(true);
    expect(showsHeroBookingForm('admin')).toBe(true);
    expect(showsHeroBookingForm('driver')).toBe(false);
    expect(showsHeroBookingForm('fleetadmin')).toBe(false);
  });
});

describe('section 2: the side menu', () => {
  const flatten = (items: MenuItem[]): { key: string; path: string }[] =>
    items.flatMap((item) => ('children' in item ? item.children : [item]));
  const keys = (items: MenuItem[]) => items.map((item) => item.key);

  it('every entry leads to a route the role may open', () => {
    for (const usertype of USER_TYPES) {
      for (const item of flatten(sideMenuFor(usertype).items)) expect(canOpenRoute(item.path, usertype)).toBe(true);
    }
  });

  it('gives admins the Users and Wallet groups and every admin page', () => {
    const menu = sideMenuFor('admin');
    expect(keys(menu.items)).toEqual([
      'home', 'dashboard', 'booking_history', 'add_booking', 'document_review', 'users', 'car_types', 'cancellation_reasons', 'wallet', 'promos', 'push_notifications', 'messages', 'audit_log', 'settings', 'profile',
    ]);
    const paths = flatten(menu.items).map((item) => item.path);
    for (const [route, allowed] of Object.entries(PROTECTED_ROUTES)) if ((allowed as readonly string[]).includes('admin')) expect(paths).toContain(route);
  });

  it('gives fleet admins dashboard, bookings, drivers and driver earnings, named as their page', () => {
    const menu = sideMenuFor('fleetadmin');
    expect(menu.items).toEqual([
      { key: 'home', path: '/' },
      { key: 'dashboard', path: '/dashboard' },
      { key: 'booking_history', path: '/bookings' },
      { key: 'drivers', path: '/drivers' },
      { key: 'document_review', path: '/documentreview' },
      { key: 'driver_earning', path: '/driverearning' },
      { key: 'profile', path: '/profile' },
    ]);
  });

  it('gives riders and drivers home, booking history and profile, and everyone logout', () => {
    expect(keys(sideMenuFor('rider').items)).toEqual(['home', 'booking_history', 'profile']);
    // Issue 20: a driver also sends its documents.
    expect(keys(sideMenuFor('driver').items)).toEqual(['home', 'booking_history', 'documents', 'profile']);
    for (const usertype of ['rider', 'driver'] as const) {
      expect(sideMenuFor(usertype).logout).toBe(true);
    }
  });
});

describe('section 6: capabilities of each role', () => {
  it('only riders book on the public form; only admins book for riders, assign, manage the catalogue and credit wallets', () => {
    const holders = (capability: (typeof CAPABILITIES)[number]) => USER_TYPES.filter((u) => can(u, capability));
    expect(holders('booking:create')).toEqual(['rider']);
    expect(holders('booking:createForRider')).toEqual(['admin']);
    expect(holders('booking:cancel')).toEqual(['rider', 'admin']);
    expect(holders('booking:assign')).toEqual(['admin']);
    expect(holders('booking:runTrip')).toEqual(['driver']);
    expect(holders('dashboard:view')).toEqual(['admin', 'fleetadmin']);
    expect(holders('reports:driverEarnings')).toEqual(['admin', 'fleetadmin']);
    expect(holders('drivers:manageOwn')).toEqual(['fleetadmin']);
    expect(holders('withdraws:request')).toEqual(['driver']);
    for (const capability of ['users:manage', 'cartypes:manage', 'promos:manage', 'cancelreasons:manage', 'notifications:send', 'wallet:credit', 'withdraws:manage', 'settings:manage', 'reports:earnings'] as const) {
      expect(holders(capability)).toEqual(['admin']);
    }
    expect(holders('profile:edit')).toEqual([...USER_TYPES]);
  });

  it('grants only known capabilities', () => {
    for (const list of Object.values(ROLE_CAPABILITIES)) for (const capability of list) expect(CAPABILITIES).toContain(capability);
  });
});

describe('section 6: demo mode (AllowCriticalEditsAdmin false)', () => {
  const demo = { AllowCriticalEditsAdmin: false };
  const live = { AllowCriticalEditsAdmin: true };

  it('blocks the critical edits: car type, promo update and delete, settings, user delete, cancel, notification send', () => {
    expect([...CRITICAL_EDITS]).toEqual([
      'cartype:add', 'cartype:update', 'cartype:delete', 'promo:update', 'promo:delete', 'settings:update', 'user:delete', 'booking:cancel', 'notification:send',
      // Beyond section 6 (decisions.md): a published demo login must not lock the demo's accounts.
      'two-factor:change', 'user:approval',
    ]);
    for (const edit of CRITICAL_EDITS) {
      expect(isBlockedInDemoMode(edit, demo)).toBe(true);
      expect(isBlockedInDemoMode(edit, live)).toBe(false);
    }
  });

  it('leaves promo add and user edit allowed', () => {
    expect(isBlockedInDemoMode('promo:add', demo)).toBe(false);
    expect(isBlockedInDemoMode('user:update', demo)).toBe(false);
  });

  it("shows emails as 'Hidden for Demo' and mobiles as 'Hidden'", () => {
    const user = { uid: 'u', email: 'a@b.co', mobile: '5550100' };
    expect(maskContactForDemo(user, demo)).toEqual({ uid: 'u', email: 'Hidden for Demo', mobile: 'Hidden' });
    expect(maskContactForDemo(user, live)).toBe(user);
  });
});

describe('section 6: ownership', () => {
  const booking = { status: 'NEW' as const, customer: 'r1', driver: null, fleetadmin: null, requestedDrivers: { d1: true as const } };
  const taken = { status: 'ACCEPTED' as const, customer: 'r1', driver: 'd1', fleetadmin: 'f1', requestedDrivers: null };

  it('admins see every booking; riders where they are customer', () => {
    expect(canViewBooking({ uid: 'a', usertype: 'admin' }, booking)).toBe(true);
    expect(canViewBooking({ uid: 'r1', usertype: 'rider' }, booking)).toBe(true);
    expect(canViewBooking({ uid: 'r2', usertype: 'rider' }, booking)).toBe(false);
  });

  it('drivers see their trips and only NEW tasks that request them', () => {
    expect(canViewBooking({ uid: 'd1', usertype: 'driver' }, booking)).toBe(true);
    expect(canViewBooking({ uid: 'd2', usertype: 'driver' }, booking)).toBe(false);
    expect(canViewBooking({ uid: 'd1', usertype: 'driver' }, taken)).toBe(true);
    expect(canViewBooking({ uid: 'd2', usertype: 'driver' }, { ...taken, requestedDrivers: { d2: true } })).toBe(false);
  });

  it('fleet admins see bookings with their fleetadmin id', () => {
    expect(canViewBooking({ uid: 'f1', usertype: 'fleetadmin' }, taken)).toBe(true);
    expect(canViewBooking({ uid: 'f2', usertype: 'fleetadmin' }, taken)).toBe(false);
    expect(canViewBooking({ uid: 'f1', usertype: 'fleetadmin' }, booking)).toBe(false);
  });

  it('fleet admins manage only their own drivers; admins all but admins; everyone themselves', () => {
    const ownDriver = { uid: 'd1', usertype: 'driver' as const, fleetadmin: 'f1' };
    expect(canManageUser({ uid: 'f1', usertype: 'fleetadmin' }, ownDriver)).toBe(true);
    expect(canManageUser({ uid: 'f2', usertype: 'fleetadmin' }, ownDriver)).toBe(false);
    expect(canManageUser({ uid: 'f1', usertype: 'fleetadmin' }, { uid: 'r1', usertype: 'rider', fleetadmin: 'f1' })).toBe(false);
    expect(canManageUser({ uid: 'a', usertype: 'admin' }, ownDriver)).toBe(true);
    expect(canManageUser({ uid: 'a', usertype: 'admin' }, { uid: 'a2', usertype: 'admin' })).toBe(false);
    expect(canManageUser({ uid: 'r1', usertype: 'rider' }, { uid: 'r1', usertype: 'rider' })).toBe(true);
    expect(canManageUser({ uid: 'r1', usertype: 'rider' }, { uid: 'r2', usertype: 'rider' })).toBe(false);
  });

  it('admins add riders, drivers and fleet admins; fleet admins add drivers', () => {
    expect(userTypesAddableBy('admin')).toEqual(['rider', 'driver', 'fleetadmin']);
    expect(userTypesAddableBy('fleetadmin')).toEqual(['driver']);
    expect(userTypesAddableBy('rider')).toEqual([]);
    expect(userTypesAddableBy('driver')).toEqual([]);
  });
});
