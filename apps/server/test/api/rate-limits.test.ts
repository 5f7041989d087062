/**
 * Issue 15, point 4: every write is rate-limited, per user and per address (http/rate-limits.ts).
 * Over a limit the answer is 429 too_many_requests with Retry-After and nothing is stored. The
 * limits are small here (RATE_LIMIT_OVERRIDES), so one request past them is quick to reach;
 * each test speaks from addresses of its own, so the counts of one never reach another.
 */
import { randomUUID } from 'node:crypto';
import { errorBody } from '@rideway/contract';
import { count, eq } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import { bookings, chats, otpCodes, outbox, throttleCounters, users } from '../../src/db/schema';
import type { UserRow } from '../../src/modules/users/accounts';
import { memoryStorage } from '../../src/providers/storage';
import { drop, pickup, PNG, sedan } from '../fixtures';
import { fakeProvider, type FakeProvider } from '../fake-payment-provider';
import { createTestApp, ENGINES, NEAR_PICKUP, type TestApp } from '../harness';

const HOUR_S = 3600;

const SMALL_LIMITS = [
  'signup.address=2/1h',
  'password-reset.address=2/1h',
  'otp.address=2/1h',
  'chat.user=2/1h',
  'chat.address=4/1h',
  'location.user=2/1h',
  'location.address=4/1h',
  'booking.user=2/1h',
  'booking.address=3/1h',
  'upload.user=1/1h',
  'upload.address=2/1h',
  'maps.user=2/1h',
  'maps.address=4/1h',
].join(',');

/** A 429 of a rate limit: the catalogue's body, and a Retry-After within the window. */
function expectRefused(response: LightMyRequestResponse, windowS = HOUR_S): void {
  expect([response.statusCode, response.json()]).toEqual([429, errorBody('too_many_requests')]);
  const wait = Number(response.headers['retry-after']);
  expect(wait).toBeGreaterThan(0);
  expect(wait).toBeLessThanOrEqual(windowS);
}

let addresses = 0;
/** An address no other test speaks from. */
const freshAddress = () => {
  addresses += 1;
  return `198.51.${String(Math.floor(addresses / 250))}.${String((addresses % 250) + 1)}`;
};

let people = 0;
const signUpOf = (extra: Record<string, unknown> = {}) => {
  people += 1;
  return { firstName: 'Rae', lastName: 'Limit', email: `rae.${String(people)}.${randomUUID().slice(0, 6)}@example.com`, mobile: `7${String(people).padStart(9, '0')}`, password: 'rae1234', ...extra };
};

/** The test app's requests, always from a stated address. */
const speaker = (t: TestApp) => (as: UserRow | null, method: InjectOptions['method'], url: string, address: string, payload?: unknown) =>
  t.request({ method, url, as, remoteAddress: address, ...(payload === undefined ? {} : { payload: payload as InjectOptions['payload'] }) });

describe.each(ENGINES)('rate limits on writes on %s (issue 15)', (engine) => {
  let t: TestApp;
  let send: ReturnType<typeof speaker>;
  let admin: UserRow;
  const stored: string[] = [];
  const rows = async (table: PgTable) => (await t.db.select({ n: count() }).from(table))[0]?.n ?? 0;

  beforeAll(async () => {
    t = await createTestApp(engine, { RATE_LIMIT_OVERRIDES: SMALL_LIMITS });
    send = speaker(t);
    // Every file the app stores, to see that a refused request stored none.
    const storage = t.app.ctx.storage;
    t.app.ctx.storage = {
      ...storage,
      put: async (folder, bytes, extension) => {
        const key = await storage.put(folder, bytes, extension);
        stored.push(key);
        return key;
      },
    };
    admin = await t.makeUser('admin');
    expect((await send(admin, 'POST', '/api/cartypes', freshAddress(), sedan)).statusCode).toBe(201);
    // A driver near the pickup who takes no trip: a booking needs one to be made.
    await online(await t.makeUser('driver', { carType: 'Sedan' }), freshAddress());
  });
  afterAll(() => t.close());

  /** A driver goes online near the pickup, as the driver app does. */
  const online = async (driver: UserRow, address: string) => {
    expect((await send(driver, 'PATCH', '/api/driver/status', address, { driverActiveStatus: true })).statusCode).toBe(200);
    expect((await send(driver, 'POST', '/api/driver/location', address, NEAR_PICKUP)).statusCode).toBe(200);
  };

  /** A booking accepted by a fresh driver online, and its parties. */
  const acceptedTrip = async (appcat: 'taxi' | 'delivery') => {
    const setup = freshAddress();
    await t.setSettings({ appcat });
    const driver = await t.makeUser('driver', { carType: 'Sedan', vehicleNumber: 'RL1 MIT' });
    await online(driver, setup);
    const rider = await t.makeUser('rider');
    // A parcel booked by a rider waits for its payment: the admin books it for the rider, as a desk does.
    const booked = appcat === 'delivery'
      ? await send(admin, 'POST', '/api/bookings', setup, { pickup, drop, carType: 'Sedan', customer: rider.id, deliveryPerson: 'Sam', deliveryPersonPhone: '555 0100' })
      : await send(rider, 'POST', '/api/bookings', setup, { pickup, drop, carType: 'Sedan' });
    expect(booked.statusCode).toBe(201);
    const id = booked.json().id as string;
    await t.db.update(bookings).set({ requestedDrivers: { [driver.id]: true } }).where(eq(bookings.id, id));
    expect((await send(driver, 'POST', `/api/bookings/${id}/accept`, setup)).statusCode).toBe(200);
    return { id, driver, rider };
  };

  it('sign-up: the third from one address in the hour is refused before the licence image is stored; malformed ones do not count', async () => {
    const address = freshAddress();
    const driverSignUp = () => signUpOf({ usertype: 'driver', carType: 'Sedan', vehicleNumber: 'LC12 ABC', licenseImage: PNG });
    expect((await send(null, 'POST', '/api/auth/register', address, { ...driverSignUp(), email: 'not an email' })).statusCode).toBe(400);
    for (let i = 0; i < 2; i += 1) expect((await send(null, 'POST', '/api/auth/register', address, driverSignUp())).statusCode).toBe(201);
    const [accounts, files] = [await rows(users), stored.length];
    expectRefused(await send(null, 'POST', '/api/auth/register', address, driverSignUp()));
    // The section 7 sign-up is the same sign-up, counted with it.
    expectRefused(await send(null, 'POST', '/user_signup', address, { regData: driverSignUp() }));
    expect([await rows(users), stored.length]).toEqual([accounts, files]);
    // Another address signs up.
    expect((await send(null, 'POST', '/api/auth/register', freshAddress(), driverSignUp())).statusCode).toBe(201);
  });

  it('password reset: the third request from one address is refused before it is counted or mailed', async () => {
    const user = await t.makeUser('rider');
    const address = freshAddress();
    for (let i = 0; i < 2; i += 1) expect((await send(null, 'POST', '/api/auth/password-reset', address, { email: user.email })).statusCode).toBe(200);
    const before = [await rows(outbox), await rows(throttleCounters)];
    expectRefused(await send(null, 'POST', '/api/auth/password-reset', address, { email: user.email }));
    expect([await rows(outbox), await rows(throttleCounters)]).toEqual(before);
    expect((await send(null, 'POST', '/api/auth/password-reset', freshAddress(), { email: 'someone@example.com' })).statusCode).toBe(200);
  });

  it('OTP: the third code asked from one address is refused; no code is made, no SMS queued', async () => {
    const user = await t.makeUser('rider');
    const address = freshAddress();
    for (let i = 0; i < 2; i += 1) expect((await send(null, 'POST', '/api/auth/otp/request', address, { mobile: user.mobile })).statusCode).toBe(200);
    const before = [await rows(otpCodes), await rows(outbox)];
    expectRefused(await send(null, 'POST', '/api/auth/otp/request', address, { mobile: user.mobile }));
    expect([await rows(otpCodes), await rows(outbox)]).toEqual(before);
  });

  it('chat: per user wherever it speaks from, and per address whoever speaks; a refused message is not stored', async () => {
    const { id, driver, rider } = await acceptedTrip('taxi');
    const [home, away] = [freshAddress(), freshAddress()];
    const say = (as: UserRow, address: string) => send(as, 'POST', `/api/bookings/${id}/chat`, address, { message: 'On my way' });
    for (let i = 0; i < 2; i += 1) expect((await say(rider, home)).statusCode).toBe(201);
    expectRefused(await say(rider, home));
    expectRefused(await say(rider, away));
    // The driver, behind the same address, has its own count: the address has room for one more.
    expect((await say(driver, home)).statusCode).toBe(201);
    expectRefused(await say(driver, home));
    expect(await rows(chats)).toBe(3);
  });

  it("location: a driver's third position is refused and not kept; another driver at the address still reports", async () => {
    const address = freshAddress();
    const [driver, colleague] = [await t.makeUser('driver', { carType: 'Sedan' }), await t.makeUser('driver', { carType: 'Sedan' })];
    const report = (as: UserRow, lat: number) => send(as, 'POST', '/api/driver/location', address, { lat, lng: -0.12 });
    for (const lat of [51.51, 51.52]) expect((await report(driver, lat)).statusCode).toBe(200);
    expectRefused(await report(driver, 51.53));
    expect(t.app.ctx.live.pendingPositions.get(driver.id)).toMatchObject({ lat: 51.52 });
    expect((await report(colleague, 51.54)).statusCode).toBe(200);
    // Four positions from the address (the refused one counts): the fifth is refused whoever sends it.
    expectRefused(await report(colleague, 51.55));
    expect(t.app.ctx.live.pendingPositions.get(colleague.id)).toMatchObject({ lat: 51.54 });
  });

  it('booking creation: a rider past its count books nothing; the address counts every rider behind it', async () => {
    const address = freshAddress();
    const [rider, neighbour] = [await t.makeUser('rider'), await t.makeUser('rider')];
    const book = (as: UserRow) => send(as, 'POST', '/api/bookings', address, { pickup, drop, carType: 'Sedan' });
    for (let i = 0; i < 2; i += 1) expect((await book(rider)).statusCode).toBe(201);
    const before = await rows(bookings);
    expectRefused(await book(rider));
    expectRefused(await book(neighbour));
    expect(await rows(bookings)).toBe(before);
    expect((await send(neighbour, 'POST', '/api/bookings', freshAddress(), { pickup, drop, carType: 'Sedan' })).statusCode).toBe(201);
  });

  it('maps: place searches and routes past the count are refused before the provider is asked', async () => {
    const address = freshAddress();
    const [rider, neighbour] = [await t.makeUser('rider'), await t.makeUser('rider')];
    const maps = t.app.ctx.maps;
    let asked = 0;
    t.app.ctx.maps = { ...maps, autocomplete: (query) => { asked += 1; return maps.autocomplete(query); } };
    try {
      const search = (as: UserRow) => send(as, 'POST', '/googleapis-autocomplete', address, { searchKeyword: 'kings cr' });
      expect((await search(rider)).statusCode).toBe(200);
      expect((await send(rider, 'POST', '/api/estimates', address, { pickup, drop, carType: 'Sedan' })).statusCode).toBe(200);
      expectRefused(await search(rider));
      expect((await search(neighbour)).statusCode).toBe(200);
      expectRefused(await search(neighbour));
      expect(asked).toBe(2);
    } finally {
      t.app.ctx.maps = maps;
    }
  });

  it("a parcel's photo past the count is refused before it is stored", async () => {
    const { id, driver } = await acceptedTrip('delivery');
    const address = freshAddress();
    expect((await send(driver, 'POST', `/api/bookings/${id}/arrive`, address, {})).statusCode).toBe(200);
    const first = await send(driver, 'POST', `/api/bookings/${id}/photos`, address, { kind: 'pickup', image: PNG });
    expect(first.statusCode).toBe(200);
    const files = stored.length;
    expectRefused(await send(driver, 'POST', `/api/bookings/${id}/photos`, address, { kind: 'pickup', image: PNG }));
    expect(stored.length).toBe(files);
    expect((await t.db.select({ image: bookings.pickupImage }).from(bookings).where(eq(bookings.id, id)))[0]?.image).toBe(first.json().pickup_image);
    await t.setSettings({});
  });
});

describe.each(ENGINES)('the write floor on %s (issue 15)', (engine) => {
  let t: TestApp;
  let send: ReturnType<typeof speaker>;
  beforeAll(async () => {
    t = await createTestApp(engine, { RATE_LIMIT_OVERRIDES: 'write.user=3/1h, write.address=2/1h' });
    send = speaker(t);
  });
  afterAll(() => t.close());

  it('counts a signed-in caller per user, wherever it writes from; others behind the address are not held back', async () => {
    const [user, colleague] = [await t.makeUser('rider'), await t.makeUser('rider')];
    const [home, away] = [freshAddress(), freshAddress()];
    for (const name of ['Ana', 'Bea', 'Cai']) expect((await send(user, 'PATCH', '/api/me', home, { firstName: name })).statusCode).toBe(200);
    expectRefused(await send(user, 'PATCH', '/api/me', home, { firstName: 'Dee' }));
    expectRefused(await send(user, 'PATCH', '/api/me', away, { firstName: 'Dee' }));
    expect((await t.db.select({ firstName: users.firstName }).from(users).where(eq(users.id, user.id)))[0]?.firstName).toBe('Cai');
    expect((await send(colleague, 'PATCH', '/api/me', home, { firstName: 'Eve' })).statusCode).toBe(200);
  });

  it('counts a signed-out caller per address, before its body is read or its sign-in counted', async () => {
    const address = freshAddress();
    const signIn = (at: string) => send(null, 'POST', '/api/auth/login', at, { email: 'nobody@example.com', password: 'wrong123' });
    for (let i = 0; i < 2; i += 1) expect((await signIn(address)).statusCode).toBe(401);
    const counters = await t.db.select().from(throttleCounters);
    expectRefused(await signIn(address));
    expect(await t.db.select().from(throttleCounters)).toEqual(counters);
    expect((await signIn(freshAddress())).statusCode).toBe(401);
    // Malformed bodies count too: the floor stands before the body is read.
    const garbled = freshAddress();
    const malformed = () => t.request({ method: 'POST', url: '/api/auth/login', remoteAddress: garbled, payload: '{"email": ', headers: { 'content-type': 'application/json' } });
    for (let i = 0; i < 2; i += 1) expect((await malformed()).statusCode).toBe(400);
    expectRefused(await malformed());
  });
});

describe.each(ENGINES)('the limits in force on %s (issue 15)', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(engine);
  });
  afterAll(() => t.close());

  it('by default, one address signs up 20 accounts in an hour: the 21st is refused', async () => {
    const address = freshAddress();
    for (let i = 0; i < 20; i += 1) expect((await speaker(t)(null, 'POST', '/api/auth/register', address, signUpOf())).statusCode).toBe(201);
    expectRefused(await speaker(t)(null, 'POST', '/api/auth/register', address, signUpOf()));
  });

  it('RATE_LIMITS=off lets a flood through, and the server says so at start', async () => {
    const logged = async (env: Record<string, string>) => {
      const lines: string[] = [];
      const app = await buildApp({ config: loadConfig(env), db: t.db, storage: memoryStorage(), now: () => t.clock.now, background: false, logger: { level: 'warn', stream: { write: (line: string) => { lines.push(line); } } } });
      return { app, warnings: lines.map((line) => JSON.parse(line) as { level: number; msg: string }).filter((line) => line.level === 40).map((line) => line.msg) };
    };
    const on = await logged({ RATE_LIMIT_OVERRIDES: 'signup.address=1/1h' });
    const off = await logged({ RATE_LIMITS: 'off', RATE_LIMIT_OVERRIDES: 'signup.address=1/1h,write.address=1/1h' });
    try {
      expect(on.warnings.filter((message) => message.includes('RATE_LIMITS'))).toEqual([]);
      expect(off.warnings).toContainEqual(expect.stringMatching(/^RATE_LIMITS=off: no rate limit applies .* never set it in production/));
      const statuses: number[] = [];
      for (let i = 0; i < 5; i += 1) statuses.push((await off.app.inject({ method: 'POST', url: '/api/auth/register', remoteAddress: '203.0.113.99', payload: signUpOf() })).statusCode);
      expect(statuses).toEqual(Array<number>(5).fill(201));
      const limited = [];
      for (let i = 0; i < 2; i += 1) limited.push((await on.app.inject({ method: 'POST', url: '/api/auth/register', remoteAddress: '203.0.113.99', payload: signUpOf() })).statusCode);
      expect(limited).toEqual([201, 429]);
    } finally {
      await on.app.close();
      await off.app.close();
    }
  });
});

const redisUrl = process.env.REDIS_URL;

describe.skipIf(!redisUrl).each(ENGINES)('two servers on one Redis share the counts on %s (issue 15)', (engine) => {
  const prefix = `rideway-test-${randomUUID().slice(0, 8)}`;
  const env = { REDIS_URL: redisUrl ?? '', REDIS_PREFIX: prefix, RATE_LIMIT_OVERRIDES: 'signup.address=2/1h' };
  let one: TestApp;
  let two: TestApp;
  let redis: Redis;
  beforeAll(async () => {
    [one, two] = [await createTestApp(engine, env), await createTestApp(engine, env)];
    redis = new Redis(redisUrl ?? '');
  });
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
    await one.close();
    await two.close();
  });

  it('an address that signed up on each server is refused on either, and the counts are under the prefix', async () => {
    const address = freshAddress();
    expect((await speaker(one)(null, 'POST', '/api/auth/register', address, signUpOf())).statusCode).toBe(201);
    expect((await speaker(two)(null, 'POST', '/api/auth/register', address, signUpOf())).statusCode).toBe(201);
    expectRefused(await speaker(one)(null, 'POST', '/api/auth/register', address, signUpOf()));
    expectRefused(await speaker(two)(null, 'POST', '/api/auth/register', address, signUpOf()));
    const keys = await redis.keys(`${prefix}:rate-limit:*`);
    expect(keys.some((key) => key.endsWith(`signup:address:${address}`))).toBe(true);
  });
});

describe.each(ENGINES)("the payment routes' limits on %s (issues 15 and 18)", (engine) => {
  let t: TestApp;
  let fake: FakeProvider;
  beforeAll(async () => {
    fake = fakeProvider('paystack');
    t = await createTestApp(engine, { RATE_LIMIT_OVERRIDES: 'payment.user=1/1h, write.address=2/1h, payment-notification.address=3/1h' }, { paymentProviders: [fake] });
  });
  afterAll(() => t.close());

  it("a checkout past the rider's count is refused before the provider is asked", async () => {
    const rider = await t.makeUser('rider');
    const start = () => t.request({ method: 'POST', url: '/api/payments/paystack/checkout', as: rider, remoteAddress: freshAddress(), payload: 'order_id=none', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect((await start()).statusCode).toBe(404);
    expectRefused(await start());
    expect(fake.state.requests).toEqual([]);
  });

  it("a provider's notifications are counted by their own limit, not the floor of signed-out writes", async () => {
    const address = freshAddress();
    const notify = () => {
      const { payload, headers } = fake.sign({ type: 'ignored', eventId: randomUUID(), providerType: 'charge.updated' });
      return t.request({ method: 'POST', url: '/api/payments/paystack/webhook', remoteAddress: address, payload, headers });
    };
    // Three notifications from one address: past the floor of two signed-out writes, within their own three.
    for (let i = 0; i < 3; i += 1) expect((await notify()).statusCode).toBe(200);
    expectRefused(await notify());
  });
});
