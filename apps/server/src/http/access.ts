/**
 * Security-critical: the route table. Every route the server registers has a row here saying who
 * may call it; the server refuses to start with a route that has none, and the API tests
 * generate their role matrix from these rows. Object ownership (own booking, own fleet's driver)
 * is checked by the services on top of this.
 */
import { USER_TYPES, type UserType } from '@rideway/domain';

import type { Access } from './routing';

const ALL: readonly UserType[] = USER_TYPES;
const ADMIN: readonly UserType[] = ['admin'];

export const ROUTE_ACCESS = {
  'GET /api/health': 'public',
  'GET /api/openapi.json': 'public',
  'GET /': 'public',
  // The built web app's files (http/web-app.ts).
  'GET /*': 'public',

  'POST /api/auth/register': 'public',
  'POST /api/auth/login': 'public',
  'POST /api/auth/otp/request': 'public',
  'POST /api/auth/otp/verify': 'public',
  'POST /api/auth/password-reset': 'public',
  'POST /api/auth/password-reset/confirm': 'public',
  'GET /api/auth/verify-email': 'public',
  'GET /api/auth/methods': 'public',
  'GET /api/auth/facebook': 'public',
  'GET /api/auth/facebook/callback': 'public',
  'POST /api/auth/logout': 'public',

  'GET /api/me': ALL,
  'PATCH /api/me': ALL,

  'GET /api/settings': 'public',
  'PATCH /api/settings': ADMIN,

  'GET /api/cartypes': 'public',
  'POST /api/cartypes': ADMIN,
  'PATCH /api/cartypes/:id': ADMIN,
  'DELETE /api/cartypes/:id': ADMIN,


  'GET /api/promos': ADMIN,
  'POST /api/promos': ADMIN,
  'PATCH /api/promos/:id': ADMIN,
  'DELETE /api/promos/:id': ADMIN,

  'GET /api/users': ['admin', 'fleetadmin'],
  'POST /api/users': ['admin', 'fleetadmin'],
  'PATCH /api/users/:id': ['admin', 'fleetadmin'],
  'DELETE /api/users/:id': ALL,

  'GET /api/notifications': ADMIN,
  'POST /api/notifications': ADMIN,
  'DELETE /api/notifications/:id': ADMIN,

  'GET /api/wallet': ALL,
  'POST /api/wallet/credit': ADMIN,
  'GET /api/withdraws': ['admin', 'driver'],
  'POST /api/withdraws': ['driver'],
  'POST /api/withdraws/:id/complete': ADMIN,

  'GET /api/outbox': ADMIN,
  'GET /api/reports/earnings': ADMIN,
  'GET /api/reports/driver-earnings': ['admin', 'fleetadmin', 'driver'],
  'GET /api/dashboard': ['admin', 'fleetadmin'],
  'POST /api/payments/test/checkout': 'public',
  'POST /api/payments/test/complete': 'public',
  'GET /api/files/*': 'public',

  'POST /check_user_exists': 'public',
  'POST /user_signup': 'public',
  'POST /validate_referrer': 'public',
  'GET /get_providers': 'public',
  'GET /get_languages': 'public',
  'POST /send_notification': ADMIN,
  'POST /googleapis-getaddress': 'signedIn',
  'POST /googleapis-getdrivetime': 'signedIn',
  'POST /googleapis-getmultiloctime': 'signedIn',
  'POST /googleapis-autocomplete': 'signedIn',
  'POST /googleapis-getcoords': 'signedIn',
  'POST /googleapis-getroute': 'signedIn',

  'POST /api/estimates': ['rider', 'admin'],
  'POST /api/bookings': ['rider', 'admin'],
  'GET /api/bookings': ALL,
  'GET /api/bookings/:id': ALL,
  'GET /api/push/vapid-public-key': 'public',
  'POST /api/push/subscriptions': 'signedIn',
  'DELETE /api/push/subscriptions': 'signedIn',
  'GET /api/ws': 'signedIn',
  'POST /api/driver/location': ['driver'],
  'PATCH /api/driver/status': ['driver'],
  'GET /api/drivers/live': ['admin', 'fleetadmin'],
  'GET /api/bookings/:id/chat': ['rider', 'driver'],
  'POST /api/bookings/:id/chat': ['rider', 'driver'],
  'GET /api/bookings/:id/tracking': ALL,
  'GET /api/driver/tasks': ['driver'],
  'POST /api/bookings/:id/accept': ['driver'],
  'POST /api/bookings/:id/arrive': ['driver'],
  'POST /api/bookings/:id/start': ['driver'],
  'POST /api/bookings/:id/reach': ['driver'],
  'POST /api/bookings/:id/photos': ['driver'],
  'POST /api/bookings/:id/pay': ['rider', 'driver'],
  'POST /api/bookings/:id/complete': ['rider'],
  'POST /api/bookings/:id/cancel': ['rider', 'admin'],
  'POST /api/bookings/:id/assign': ['admin'],
} as const satisfies Record<string, Access>;

export type RouteKey = keyof typeof ROUTE_ACCESS;

export const accessFor = (method: string, url: string): Access | undefined =>
  (ROUTE_ACCESS as Record<string, Access>)[`${method} ${url}`];


export const ALL_USER_TYPES = ALL;
