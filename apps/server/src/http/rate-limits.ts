/**
 * Security-critical: every limit on what a client can repeat (ARCHITECTURE rule 10, issue 15),
 * in one table. http/rate-limiting.ts applies the HTTP ones with @fastify/rate-limit, the
 * WebSocket gateway the socket ones (realtime/socket-limits.ts). Each is sized so that a person
 * using the apps never meets it (docs/decisions.md, "Rate limits"); an operator changes any of
 * them with RATE_LIMIT_OVERRIDES (README, "Configuration").
 */

/** At most `max` in any `windowMs`; a windowMs of 0 means at once (a cap, not a rate). */
export type Allowance = { max: number; windowMs: number };

/**
 * Who a count belongs to: the signed-in caller (`user`), the client address (`address`, an IPv6
 * address by its /64 network, as the sign-in throttle counts), or one WebSocket (`socket`).
 */
export type Scope = 'user' | 'address' | 'socket';

type LimitSpec = {
  /** What it counts, for people reading the table. */
  counts: string;
  /**
   * The routes it counts, as `METHOD /url` of their declaration; none for the socket limits. A
   * payment provider's routes exist only where it is configured: a star for the provider name names them
   * for every provider.
   */
  routes: readonly string[];
  /** Counted instead of the write floor: senders that speak from a few addresses in bursts (payment providers' notifications). */
  replacesFloor?: true;
} & Partial<Record<Scope, Allowance>>;

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

const per = (max: number, windowMs: number): Allowance => ({ max, windowMs });

/**
 * The limits. A signed-out route counts per address only: the database throttles of issue 15
 * already count its account (email or number). The write floor counts a signed-in caller per
 * user and a signed-out one per address, so people behind one address (an office, a carrier's
 * NAT) do not share a floor.
 */
export const RATE_LIMITS = {
  write: { counts: 'every POST, PUT, PATCH and DELETE (the floor)', routes: [], user: per(1200, MINUTE), address: per(600, MINUTE) },
  signup: { counts: 'sign-ups (licence images up to 5 MiB)', routes: ['POST /api/auth/register', 'POST /user_signup'], address: per(20, HOUR) },
  'password-reset': { counts: 'password reset requests and confirmations', routes: ['POST /api/auth/password-reset', 'POST /api/auth/password-reset/confirm'], address: per(30, 15 * MINUTE) },
  otp: { counts: 'sign-in codes sent by SMS', routes: ['POST /api/auth/otp/request'], address: per(30, 15 * MINUTE) },
  // Issue 20: each start stores a sign-in under way and each return asks Google or Apple; a person tries a few times.
  'social-sign-in': {
    counts: 'Google and Apple sign-ins started and returned from',
    routes: ['GET /api/auth/google/start', 'GET /api/auth/apple/start', 'GET /api/auth/google/callback', 'POST /api/auth/apple/callback'],
    address: per(60, 15 * MINUTE),
  },
  // Issue 20 point 5: each second step checks a code; the challenge (5 wrong) and the user (10 wrong in 15 minutes) are counted in the database too.
  'two-factor-sign-in': { counts: 'second steps of sign-ins (codes tried) and enrolments a sign-in requires', routes: ['POST /api/auth/2fa/verify', 'POST /api/auth/2fa/enrol'], address: per(30, 15 * MINUTE) },
  'two-factor': {
    counts: "a staff member's two-factor changes (each but the start checks a code or the password)",
    routes: ['POST /api/me/two-factor/start', 'POST /api/me/two-factor/confirm', 'POST /api/me/two-factor/recovery-codes', 'POST /api/me/two-factor/disable'],
    user: per(20, 15 * MINUTE),
    address: per(100, 15 * MINUTE),
  },
  chat: { counts: 'chat messages', routes: ['POST /api/bookings/:id/chat'], user: per(30, MINUTE), address: per(300, MINUTE) },
  location: { counts: "a driver's positions, by HTTP and on the WebSocket", routes: ['POST /api/driver/location'], user: per(60, MINUTE), address: per(3000, MINUTE) },
  booking: { counts: 'bookings made', routes: ['POST /api/bookings', 'POST /api/bookings/:id/retry'], user: per(20, MINUTE), address: per(300, MINUTE) },
  // A real maps provider bills each call: place search and routes per user, so one account cannot run up the bill.
  maps: {
    counts: 'place searches, addresses, routes and estimates (a real maps provider bills each)',
    routes: ['POST /googleapis-getaddress', 'POST /googleapis-getdrivetime', 'POST /googleapis-getmultiloctime', 'POST /googleapis-autocomplete', 'POST /googleapis-getcoords', 'POST /googleapis-getroute', 'POST /api/estimates', 'POST /api/estimates/car-types'],
    user: per(120, MINUTE),
    address: per(600, MINUTE),
  },
  // A decline may start the next round of offers at once (a maps call): a driver never declines this often.
  decline: { counts: "a driver's declined offers", routes: ['POST /api/bookings/:id/decline'], user: per(30, MINUTE), address: per(600, MINUTE) },
  // The web asks every 30 s and when the driver moves; the server asks the maps provider at most once per booking and window.
  eta: { counts: "a trip's ETA requests", routes: ['GET /api/bookings/:id/eta'], user: per(60, MINUTE), address: per(1200, MINUTE) },
  // Issue 17: a promo code can be guessed. Apply, and a booking that carries a code, count here; a rider types a few.
  promo: { counts: 'promo codes tried (Apply in the estimate dialog, and bookings with a code)', routes: ['POST /api/estimates/promo'], user: per(20, 10 * MINUTE), address: per(100, 10 * MINUTE) },
  upload: { counts: "a parcel's photos", routes: ['POST /api/bookings/:id/photos'], user: per(20, MINUTE), address: per(300, MINUTE) },
  payment: {
    counts: "checkouts, top-ups, card removals and admin refunds (each may call a payment provider), and admins' confirmations of refunds made in a provider's dashboard",
    routes: ['POST /api/payments/*/checkout', 'POST /api/payments/*/complete', 'POST /api/wallet/topup', 'DELETE /api/me/cards/:id', 'POST /api/bookings/:id/refunds', 'POST /api/refunds/:id/dashboard-confirmation'],
    user: per(30, MINUTE),
    address: per(300, MINUTE),
  },
  // Issue 17: each decision moves money (a payout, or a refund to the wallet); an admin decides a queue by hand.
  'withdraw-decision': { counts: "an admin's withdraw decisions (process and reject)", routes: ['POST /api/withdraws/:id/complete', 'POST /api/withdraws/:id/reject'], user: per(60, MINUTE), address: per(300, MINUTE) },
  // Issue 19: each retry hands a failed message to its provider again (an SMS costs money); an admin retries a few by hand.
  'outbox-retry': { counts: "an admin's retries of failed messages", routes: ['POST /api/outbox/:id/retry'], user: per(60, MINUTE), address: per(300, MINUTE) },
  // The return from a provider's page asks the provider: per address, whoever comes back.
  'payment-return': { counts: "returns from a payment provider's page", routes: ['GET /api/payments/*/return'], address: per(120, MINUTE) },
  // A provider delivers notifications in bursts from a few addresses; each is checked by its signature.
  'payment-notification': { counts: "payment providers' notifications", routes: ['POST /api/payments/*/webhook'], address: per(6000, MINUTE), replacesFloor: true },
  // Issue 19: the web reads the inbox when the app opens, on each notice and when the bell is opened; marks are one tap each.
  // Issue 23: a load balancer probes every few seconds from a few addresses; each probe asks the database.
  readiness: { counts: 'readiness probes (each asks the database)', routes: ['GET /api/health/ready'], address: per(600, MINUTE) },
  // Issue 23: an admin's table shows a hundred photos at once; each miss on S3 is a billed request.
  files: { counts: 'uploaded images read', routes: ['GET /api/files/*'], address: per(3000, MINUTE) },
  inbox: { counts: 'reads of the own inbox', routes: ['GET /api/me/notifications'], user: per(120, MINUTE), address: per(1200, MINUTE) },
  'inbox-read': { counts: 'inbox messages marked read', routes: ['POST /api/me/notifications/:id/read', 'POST /api/me/notifications/read-all'], user: per(120, MINUTE), address: per(1200, MINUTE) },
  // Issue 17: the web reads the saved places when the profile or the booking form opens; each edit is one tap.
  places: { counts: 'reads of the own saved places', routes: ['GET /api/me/places'], user: per(120, MINUTE), address: per(1200, MINUTE) },
  'place-edit': { counts: 'saved places saved, renamed and removed', routes: ['POST /api/me/places', 'PATCH /api/me/places/:id', 'DELETE /api/me/places/:id'], user: per(60, MINUTE), address: per(600, MINUTE) },
  // Issue 20: a wrong current password is a guess at it, so few tries; a photo is decoded and scaled (work); an export reads everything the account has.
  'password-change': { counts: 'password changes (each checks the current password)', routes: ['POST /api/me/password'], user: per(10, 15 * MINUTE), address: per(50, 15 * MINUTE) },
  'profile-photo': { counts: 'profile photos set and removed (each up to 5 MiB, decoded and scaled)', routes: ['PUT /api/me/photo', 'DELETE /api/me/photo'], user: per(20, 10 * MINUTE), address: per(200, 10 * MINUTE) },
  'data-export': { counts: 'downloads of the own data', routes: ['GET /api/me/export'], user: per(5, HOUR), address: per(50, HOUR) },
  // Issue 20: a driver sends its five documents, now and then again; each upload is an image of up to 5 MiB.
  'document-upload': { counts: "a driver's document uploads", routes: ['PUT /api/driver/documents/:kind'], user: per(20, 10 * MINUTE), address: per(200, 10 * MINUTE) },
  // The review screen reads the list on each decision and filter; each decision is one click.
  documents: { counts: "reads of documents (the driver's own, or those to review)", routes: ['GET /api/driver/documents', 'GET /api/documents'], user: per(120, MINUTE), address: per(1200, MINUTE) },
  'document-review': { counts: 'document approvals and rejections', routes: ['POST /api/documents/:id/approve', 'POST /api/documents/:id/reject'], user: per(120, MINUTE), address: per(600, MINUTE) },
  // Issue 20 point 3: a driver adds a few cars, each with a photo of up to 5 MiB; switching and deleting are one tap each.
  'vehicle-upload': { counts: "a driver's vehicles added", routes: ['POST /api/driver/vehicles'], user: per(20, 10 * MINUTE), address: per(200, 10 * MINUTE) },
  'vehicle-edit': { counts: "a driver's vehicle switches and deletions", routes: ['POST /api/driver/vehicles/:id/activate', 'DELETE /api/driver/vehicles/:id'], user: per(30, 10 * MINUTE), address: per(300, 10 * MINUTE) },
  vehicles: { counts: "reads of vehicles (the driver's own, or those to review)", routes: ['GET /api/driver/vehicles', 'GET /api/vehicles'], user: per(120, MINUTE), address: per(1200, MINUTE) },
  'vehicle-review': { counts: 'vehicle approvals and rejections', routes: ['POST /api/vehicles/:id/approve', 'POST /api/vehicles/:id/reject'], user: per(120, MINUTE), address: per(600, MINUTE) },
  // Issue 20 point 6: the users page searches as the admin types (debounced) and opens details; a decision is one click with a reason.
  'user-lookup': { counts: "user lists, searches and detail pages (an admin's or a fleet admin's)", routes: ['GET /api/users', 'GET /api/users/:id/detail'], user: per(240, MINUTE), address: per(1200, MINUTE) },
  'two-factor-reset': { counts: "admins' resets of a staff member's two-factor sign-in", routes: ['POST /api/users/:id/two-factor/reset'], user: per(10, MINUTE), address: per(100, MINUTE) },
  'user-approval': { counts: 'account approvals and suspensions', routes: ['POST /api/users/:id/approval'], user: per(30, MINUTE), address: per(300, MINUTE) },
  // Issue 23 point 8: the audit page searches as the admin types (debounced) and pages back; each read joins the accounts.
  audit: { counts: 'reads and searches of the audit log', routes: ['GET /api/audit'], user: per(120, MINUTE), address: per(1200, MINUTE) },
  'socket-open': { counts: 'WebSocket connections opened', routes: ['GET /api/ws'], user: per(60, MINUTE), address: per(600, MINUTE) },
  'open-sockets': { counts: 'WebSocket connections open at once on one server process', routes: [], user: per(10, 0) },
  'socket-messages': { counts: 'messages on one WebSocket', routes: [], socket: per(20, SECOND) },
  'socket-refusals': { counts: 'refused subscriptions on one WebSocket', routes: [], socket: per(20, MINUTE) },
} as const satisfies Record<string, LimitSpec>;

export type LimitName = keyof typeof RATE_LIMITS;

/** The limits in force: the table with the operator's changes, each with the scopes the table gives it. */
export type Limits = { [Name in LimitName]: { counts: string; routes: readonly string[]; replacesFloor?: true } & Record<Extract<keyof (typeof RATE_LIMITS)[Name], Scope>, Allowance> };

/** The operator's changes, by limit and scope. */
export type RateLimitOverrides = Partial<Record<LimitName, Partial<Record<Scope, Allowance>>>>;

const isLimitName = (name: string): name is LimitName => Object.hasOwn(RATE_LIMITS, name);
const isScope = (scope: string): scope is Scope => scope === 'user' || scope === 'address' || scope === 'socket';

const UNITS: Record<string, number> = { s: SECOND, m: MINUTE, h: HOUR, d: 24 * HOUR };
const ENTRY = /^([a-z-]+)\.([a-z]+)=(\d{1,9})(?:\/(\d{1,6})(s|m|h|d))?$/;

/**
 * Reads RATE_LIMIT_OVERRIDES: comma-separated `name.scope=max` or `name.scope=max/window`, the
 * window a number and a unit (s, m, h, d), e.g. `signup.address=5/1h, chat.user=60`. A change
 * without a window keeps the table's. Answers the changes, or what is wrong with the text.
 */
export function parseRateLimitOverrides(text: string): { ok: true; value: RateLimitOverrides } | { ok: false; problem: string } {
  const value: RateLimitOverrides = {};
  for (const entry of text.split(',').map((part) => part.replace(/\s+/g, '')).filter((part) => part !== '')) {
    const match = ENTRY.exec(entry);
    if (!match) return { ok: false, problem: `"${entry}" is not name.scope=max or name.scope=max/window (e.g. signup.address=5/1h)` };
    const [, name = '', scope = '', max = '', count, unit] = match;
    if (!isLimitName(name)) return { ok: false, problem: `"${name}" is no limit; the limits are ${Object.keys(RATE_LIMITS).join(', ')}` };
    const spec: Partial<Record<Scope, Allowance>> = RATE_LIMITS[name];
    const current = isScope(scope) ? spec[scope] : undefined;
    if (!isScope(scope) || !current) return { ok: false, problem: `${name} counts per ${(['user', 'address', 'socket'] as const).filter((known) => spec[known]).join(' and per ')}, not per ${scope}` };
    if (Number(max) < 1) return { ok: false, problem: `${entry}: the maximum is at least 1` };
    if (current.windowMs === 0 && count !== undefined) return { ok: false, problem: `${name} is a number at once, without a window` };
    const windowMs = count === undefined || unit === undefined ? current.windowMs : Number(count) * (UNITS[unit] ?? SECOND);
    if (current.windowMs > 0 && windowMs < 1) return { ok: false, problem: `${entry}: the window is at least 1s` };
    value[name] = { ...value[name], [scope]: per(Number(max), windowMs) };
  }
  return { ok: true, value };
}

/** The table with the operator's changes applied (the parser admits only the scopes a limit has, so each keeps its shape). */
export function limitsInForce(overrides: RateLimitOverrides): Limits {
  return Object.fromEntries((Object.keys(RATE_LIMITS) as LimitName[]).map((name) => [name, { ...RATE_LIMITS[name], ...overrides[name] }])) as unknown as Limits;
}

/** A limit's allowance for a scope, if it counts per that scope. */
export const allowanceOf = (limits: Limits, name: LimitName, scope: Scope): Allowance | undefined => (limits[name] as Partial<Record<Scope, Allowance>>)[scope];

/** The limit that counts a route (besides the write floor), by `METHOD /url`. */
/** A payment provider's route, as the table names it for every provider. */
export const anyProviderRoute = (route: string): string => route.replace(/^(\w+ \/api\/payments\/)[a-z]+\//, '$1*/');

export function limitsByRoute(limits: Limits): Map<string, LimitName> {
  const byRoute = new Map<string, LimitName>();
  for (const name of Object.keys(limits) as LimitName[]) for (const route of limits[name].routes) byRoute.set(route, name);
  return byRoute;
}
