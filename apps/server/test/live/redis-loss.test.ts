import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLive, type LiveClient, type LiveMessage } from '../live-client';
import { tcpRelay, type TcpRelay } from '../tcp-relay';
import { twoProcesses, type ProcessIndex } from '../two-processes';
import { valueOf } from '../prometheus';

const serverUrl = process.env.DATABASE_URL;
const redisUrl = process.env.REDIS_URL;
const METRICS_TOKEN = 'redis-loss-test-metrics-token-0123456789';
/**
 * A request that has not answered by then hangs: the defect this test guards against (requests
 * held past 8 s when Redis was lost), not a timing assertion. A silent Redis costs a write request
 * a few command timeouts of 1 s (the rate limits' store, then the geo index once).
 */
const HANG_MS = 8000;


/**
 * Two server processes reaching Redis through a relay of their own (cut before they start with
 * `cutAtStart`), started before the describe's tests and stopped after them, with the live
 * clients the tests opened.
 */
function behindRelay(name: string, options: { cutAtStart?: boolean } = {}) {
  let relay: TcpRelay | undefined;
  let processes: ReturnType<typeof twoProcesses> | undefined;
  const clients: LiveClient[] = [];
  const started = () => {
    if (!relay || !processes) throw new Error('not started');
    return { relay, processes };
  };
  beforeAll(async () => {
    relay = await tcpRelay(new URL(redisUrl ?? ''), 6379);
    if (options.cutAtStart) await relay.vanish();
    processes = twoProcesses(serverUrl ?? '', relay.url, name, { env: { METRICS_TOKEN, LOG_LEVEL: 'warn' }, keepOutput: true });
    await processes.start();
  }, 180_000);
  afterAll(async () => {
    for (const client of clients) await client.close();
    await relay?.restore();
    await processes?.stop();
    await relay?.close();
  }, 60_000);
  const live = async (index: ProcessIndex, token: string) => {
    const client = await openLive(`${started().processes.base(index).replace('http', 'ws')}/api/ws`, token);
    clients.push(client);
    return client;
  };
  return { started, live };
}

/**
 * Issue 23 point 4, Redis lost under two server processes. Both reach Redis through a TCP relay
 * that the test cuts and restores (the machine's Redis, shared with other tests, is never
 * touched). While it is cut each process keeps taking driver positions and booking on its own
 * index and the database, says so once in its log and in its metrics, and events still reach the
 * other process's sockets, from the database; once it is back, nothing was delivered twice.
 */
describe.skipIf(!serverUrl || !redisUrl)('Redis lost under two server processes (issue 23 point 4)', () => {
  const setup = behindRelay('redisloss');
  const { live } = setup;
  let relay: TcpRelay;
  let processes: ReturnType<typeof twoProcesses>;
  /** A call that must answer, whatever Redis does: a hang fails it. */
  const call = async (index: ProcessIndex, method: string, path: string, token: string, body?: unknown) => {
    const response = await fetch(`${processes.base(index)}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(HANG_MS),
    });
    return { status: response.status, body: (await response.json().catch(() => ({}))) as Record<string, unknown> };
  };
  const scrape = async (index: ProcessIndex) => (await fetch(`${processes.base(index)}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` }, signal: AbortSignal.timeout(HANG_MS) })).text();
  const redisUp = async (index: ProcessIndex) => valueOf(await scrape(index), 'rideway_redis_up');
  const warnings = (index: ProcessIndex) => processes.output(index).filter((line) => line.includes('Redis unreachable'));
  /** Answers with a 5xx status since start, by route. */
  const serverErrors = (text: string) => text.split('\n').filter((line) => line.startsWith('rideway_http_requests_total{') && /status_code="5\d\d"/.test(line));

  beforeAll(() => {
    ({ relay, processes } = setup.started());
  });

  it('takes positions and books on each process while Redis is cut, and delivers the events of the outage once', async () => {
    const [adminToken, riderToken, driverToken] = await Promise.all([processes.login(1, 'admin@rideway.demo'), processes.login(0, 'rider1@rideway.demo'), processes.login(0, 'driver1@rideway.demo')]);
    const me = (await call(0, 'GET', '/api/me', driverToken)).body.user as { id: string; carType: string };
    const driverLive = await live(0, driverToken);
    expect(await driverLive.subscribe('user:me')).toMatchObject({ type: 'subscribed' });
    expect([await redisUp(0), await redisUp(1)]).toEqual([1, 1]);

    await relay.vanish();
    await expect.poll(() => redisUp(0), { timeout: 15_000 }).toBe(0);
    await expect.poll(() => redisUp(1), { timeout: 15_000 }).toBe(0);

    // The driver reports to process A: the position is taken on A's own index.
    const somewhere = { lat: 51.5412, lng: -0.1426 };
    const located = await call(0, 'POST', '/api/driver/location', driverToken, somewhere);
    expect([located.status, located.body.online]).toEqual([200, true]);

    // The rider books now on process A: dispatch finds the driver there, and the offer reaches the driver's socket on A.
    const booked = await call(0, 'POST', '/api/bookings', riderToken, { pickup: { ...somewhere, add: 'Camden' }, drop: { lat: 51.5081, lng: -0.0759, add: 'Tower of London' }, carType: me.carType });
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    const id = booked.body.id as string;
    await driverLive.next((m) => m.event === 'offer' && (m.data as { id: string }).id === id, 10_000);

    // The rider follows the booking on process B; the driver accepts on A, Redis still cut.
    const riderLive = await live(1, riderToken);
    expect(await riderLive.subscribe(`booking:${id}`)).toMatchObject({ type: 'subscribed' });
    expect((await call(0, 'POST', `/api/bookings/${id}/accept`, driverToken, {})).status).toBe(200);

    // A says so: Redis down in its metrics, what it served itself counted, one warning in its log.
    const during = await scrape(0);
    expect(valueOf(during, 'rideway_redis_up')).toBe(0);
    for (const operation of ['geo_write', 'geo_read', 'bus_publish']) expect(valueOf(during, 'rideway_redis_fallbacks_total', { operation })).toBeGreaterThan(0);
    expect(warnings(0)).toHaveLength(1);
    expect(warnings(1)).toHaveLength(1);

    await relay.restore();
    // The acceptance made on A during the outage reaches the rider's socket on B (from the database's cursor).
    const isAccepted = (m: LiveMessage) => m.event === 'booking' && (m.data as { status: string }).status === 'ACCEPTED';
    const accepted = await riderLive.next(isAccepted, 30_000);
    expect(accepted.data).toMatchObject({ id, driver: me.id });
    await expect.poll(() => redisUp(0), { timeout: 15_000 }).toBe(1);
    await expect.poll(() => redisUp(1), { timeout: 15_000 }).toBe(1);

    // Through Redis again: the next event from A reaches B, and the outage's event was not delivered twice.
    expect((await call(0, 'POST', `/api/bookings/${id}/arrive`, driverToken, {})).status).toBe(200);
    const arrived = await riderLive.next((m) => m.event === 'booking' && (m.data as { status: string }).status === 'ARRIVED', 10_000);
    expect(arrived.seq).toBeGreaterThan(accepted.seq ?? 0);
    expect(riderLive.messages.filter((m) => m.seq === accepted.seq || isAccepted(m))).toHaveLength(0);

    // What A heard during the outage is in the shared index now: B's live map shows the driver where it reported, on the trip.
    const adminLive = await live(1, adminToken);
    await expect
      .poll(async () => {
        await adminLive.subscribe('drivers:live');
        const snapshot = await adminLive.next((m) => m.event === 'snapshot');
        return (snapshot.data as { drivers: { uid: string; location: unknown; busy: boolean }[] }).drivers.find((driver) => driver.uid === me.id);
      }, { timeout: 10_000 })
      .toMatchObject({ location: somewhere, busy: true });

    // Never a 500, and one warning per process for the whole outage: the live layer's, and the
    // rate-limit store's (once, not at every reconnection attempt).
    for (const index of [0, 1] as const) {
      expect(serverErrors(await scrape(index))).toEqual([]);
      expect(warnings(index)).toHaveLength(1);
      expect(processes.output(index).filter((line) => line.includes('rate limit store unreachable'))).toHaveLength(1);
    }
  }, 120_000);

  it('answers within its bound when Redis stops answering without closing the connection, and is up again once it answers', async () => {
    const driverToken = await processes.login(1, 'driver2@rideway.demo');
    expect(await redisUp(1)).toBe(1);
    relay.hold();
    try {
      // The first call waits for a command to time out, the next ones find Redis down at once.
      for (const spot of [{ lat: 51.52, lng: -0.1 }, { lat: 51.521, lng: -0.1 }]) expect((await call(1, 'POST', '/api/driver/location', driverToken, spot)).status).toBe(200);
      expect(await redisUp(1)).toBe(0);
    } finally {
      relay.release();
    }
    await expect.poll(() => redisUp(1), { timeout: 15_000 }).toBe(1);
    expect(serverErrors(await scrape(1))).toEqual([]);
  }, 60_000);
});

/**
 * Issue 23 point 4, the same loss at start: a process whose Redis is out of reach when it starts
 * (a machine reboot where Redis comes up last) starts and serves on its own index and the
 * database, ready but degraded, says so once, and joins the shared index and events once Redis
 * answers, without a restart. It used to exit at start.
 */
describe.skipIf(!serverUrl || !redisUrl)('two server processes started while Redis is out of reach (issue 23 point 4)', () => {
  const setup = behindRelay('redisstart', { cutAtStart: true });

  it('starts ready but degraded, takes positions and books, then joins Redis once it answers', async () => {
    const { relay, processes } = setup.started();
    const redisUp = async (index: ProcessIndex) => valueOf(await (await fetch(`${processes.base(index)}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text(), 'rideway_redis_up');
    const ready = await fetch(`${processes.base(0)}/api/health/ready`);
    expect([ready.status, ((await ready.json()) as { status: string; checks: { redis: string } })]).toMatchObject([200, { status: 'degraded', checks: { redis: 'down' } }]);
    expect([await redisUp(0), await redisUp(1)]).toEqual([0, 0]);

    const [riderToken, driverToken, adminToken] = await Promise.all([processes.login(0, 'rider1@rideway.demo'), processes.login(0, 'driver1@rideway.demo'), processes.login(1, 'admin@rideway.demo')]);
    const me = (await processes.call(0, 'GET', '/api/me', driverToken)).body.user as { id: string; carType: string };
    const driverLive = await setup.live(0, driverToken);
    expect(await driverLive.subscribe('user:me')).toMatchObject({ type: 'subscribed' });
    const somewhere = { lat: 51.5412, lng: -0.1426 };
    expect((await processes.call(0, 'POST', '/api/driver/location', driverToken, somewhere)).status).toBe(200);
    const booked = await processes.call(0, 'POST', '/api/bookings', riderToken, { pickup: { ...somewhere, add: 'Camden' }, drop: { lat: 51.5081, lng: -0.0759, add: 'Tower of London' }, carType: me.carType });
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    await driverLive.next((m) => m.event === 'offer' && (m.data as { id: string }).id === booked.body.id, 10_000);
    // Said once each, at start: by the live layer and by the rate-limit store.
    for (const index of [0, 1] as const) {
      expect(processes.output(index).filter((line) => line.includes('Redis unreachable'))).toHaveLength(1);
      expect(processes.output(index).filter((line) => line.includes('rate limit store unreachable'))).toHaveLength(1);
    }

    await relay.restore();
    await expect.poll(() => redisUp(0), { timeout: 30_000 }).toBe(1);
    await expect.poll(() => redisUp(1), { timeout: 30_000 }).toBe(1);
    // What A took before Redis answered is in the shared index: B's live map shows the driver where it reported.
    const adminLive = await setup.live(1, adminToken);
    await expect
      .poll(async () => {
        await adminLive.subscribe('drivers:live');
        const snapshot = await adminLive.next((m) => m.event === 'snapshot');
        return (snapshot.data as { drivers: { uid: string; location: unknown }[] }).drivers.find((driver) => driver.uid === me.id);
      }, { timeout: 15_000 })
      .toMatchObject({ location: somewhere });
  }, 120_000);
});
