import { z } from 'zod';

const flag = z
  .enum(['0', '1', 'true', 'false', 'yes', 'no'])
  .transform((value) => value === '1' || value === 'true' || value === 'yes');

const optionalUrl = (protocols: RegExp) =>
  z
    .string()
    .trim()
    .transform((value) => (value === '' ? undefined : value))
    .pipe(z.url({ protocol: protocols }).optional());

/**
 * Every environment variable the server reads, parsed once. Each has an embedded default, so
 * `npm start` on a laptop needs none of them.
 */
export const configSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  /** Where the embedded database and uploaded files live. */
  DATA_DIR: z.string().min(1).default('./data'),
  /** A PostgreSQL server instead of the embedded database. */
  DATABASE_URL: optionalUrl(/^postgres(ql)?$/).optional(),
  /** Redis, to share events and live driver positions between server processes. */
  REDIS_URL: optionalUrl(/^rediss?$/).optional(),
  /** Seed demo data into an empty database. */
  DEMO_DATA: flag.default(true),
  BOOTSTRAP_ADMIN_EMAIL: z.email().optional(),
  BOOTSTRAP_ADMIN_PASSWORD: z.string().min(6).optional(),
  /** The address people reach the server at, for links in emails. */
  PUBLIC_URL: optionalUrl(/^https?$/).optional(),
  /** Behind a reverse proxy, take the client address from X-Forwarded-For (throttling uses it). */
  TRUST_PROXY: flag.default(false),
  /** An SMTP server for mail (smtp:// or smtps://); without it mail stays in the outbox for admins. */
  SMTP_URL: optionalUrl(/^smtps?$/).optional(),
  MAIL_FROM: z.string().min(3).default('Rideway <no-reply@rideway.local>'),
  /** Signs the embedded test payment provider's confirmations; random per start when unset. */
  PAYMENT_SECRET: z.string().min(16).optional(),
  /** Keys in Redis start with this, so several deployments (or test runs) can share one server. */
  REDIS_PREFIX: z.string().regex(/^[A-Za-z0-9:_-]{1,64}$/).default('rideway'),
  /** A driver who reports no position for this long drops out of availability (0: never). */
  DRIVER_TIMEOUT_S: z.coerce.number().int().min(0).max(86_400).default(300),
  /** How many of the nearest drivers each round of offers goes to. */
  OFFER_BATCH_SIZE: z.coerce.number().int().min(1).max(50).default(3),
  /** How long a round of offers waits for an accept before the next nearest drivers are asked. */
  OFFER_TIMEOUT_S: z.coerce.number().int().min(1).max(3600).default(20),
  /** A NEW booking nobody took is cancelled this long after its search started (or its tripdate). */
  NO_TAKER_CANCEL_S: z.coerce.number().int().min(10).max(86_400).default(300),
  /** A book-later booking's search starts this long before its tripdate. */
  BOOK_LATER_DISPATCH_AHEAD_S: z.coerce.number().int().min(0).max(86_400).default(600),
  /** Seconds between WebSocket pings; a client that misses one is dropped. */
  WS_HEARTBEAT_S: z.coerce.number().int().min(1).max(600).default(30),
  /** Web Push (VAPID) keys; generated once and kept in the database when unset. */
  VAPID_PUBLIC_KEY: z.string().min(20).optional(),
  VAPID_PRIVATE_KEY: z.string().min(20).optional(),
  VAPID_SUBJECT: z.string().regex(/^(mailto:|https:)/).default('mailto:admin@rideway.local'),
  /** Test-only: push endpoints over http or at private addresses (a local push stand-in); never in production. */
  PUSH_ALLOW_PRIVATE_ENDPOINTS_FOR_TESTS: flag.default(false),
  /** A Facebook app, for sign-in with Facebook when the FacebookLoginEnabled setting is on. */
  FACEBOOK_APP_ID: z.string().regex(/^\d{1,30}$/).optional(),
  FACEBOOK_APP_SECRET: z.string().min(16).optional(),
  /** Facebook's Graph API and login dialog; other addresses serve tests and proxies. */
  FACEBOOK_GRAPH_URL: z.url({ protocol: /^https?$/ }).default('https://graph.facebook.com/v21.0'),
  FACEBOOK_DIALOG_URL: z.url({ protocol: /^https?$/ }).default('https://www.facebook.com/v21.0/dialog/oauth'),
  /** The map tiles every map shows: a `{z}/{x}/{y}` URL template (`{s}` for a subdomain). */
  MAP_TILE_URL: z
    .string()
    .regex(/^https?:\/\/[^/\s]+\/\S*\{z\}\S*\{x\}\S*\{y\}/, 'an http(s) URL template with {z}, {x} and {y}')
    .default('https://tile.openstreetmap.org/{z}/{x}/{y}.png'),
  /** The tiles' attribution, shown on every map (HTML, as the tile provider words it). */
  MAP_TILE_ATTRIBUTION: z.string().min(1).max(500).default('&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});
export type Config = z.infer<typeof configSchema>;

/** Parses the environment, or throws one error naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new Error(`Bad configuration: ${problems}`);
  }
  return parsed.data;
}
