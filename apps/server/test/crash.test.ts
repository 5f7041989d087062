import type { ChildProcess } from 'node:child_process';
import { BOOKING_STATUSES } from '@rideway/domain';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './free-port';
import { createDemoDatabase } from './postgres';
import { startSourceServer, waitForHealth } from './server-process';

/**
 * Issue 4: the server is killed with SIGKILL in the middle of a stream of trip steps and
 * payments, then restarted on the same database. Every booking must be in a valid state, no
 * ledger entry may exist without its booking change, and no notice of a committed change may be
 * missing. Runs on the real PostgreSQL (DATABASE_URL), whose commits survive a kill.
 */
const serverUrl = process.env.DATABASE_URL;
// Set in beforeAll to a port the system hands out as free (a fixed range once met the machine's own services).
let port = 0;
let base = '';

function startServer(databaseUrl: string): ChildProcess {
  // Every demo driver gets each offer, so both streams' drivers can always accept.
  return startSourceServer(port, { DATABASE_URL: databaseUrl, REDIS_URL: '', OFFER_BATCH_SIZE: '5', DRIVER_TIMEOUT_S: '0' });
}

const call = async (path: string, token: string, body?: unknown) => {
  const response = await fetch(`${base}${path}`, { method: body === undefined ? 'GET' : 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: response.status, body: (await response.json().catch(() => ({}))) as Record<string, unknown> };
};

describe.skipIf(!serverUrl)('a server killed mid-stream and restarted on the same database', () => {
  let databaseUrl = '';
  let dropDatabase = () => Promise.resolve();
  let server: ChildProcess | undefined;

  beforeAll(async () => {
    port = await freePort();
    base = `http://127.0.0.1:${String(port)}`;
    const created = await createDemoDatabase(serverUrl ?? '', 'crash');
    databaseUrl = created.url;
    dropDatabase = created.drop;
  }, 120_000);

  afterAll(async () => {
    server?.kill('SIGKILL');
    await dropDatabase();
  });

  it('leaves every booking valid, every ledger entry with its booking change, every notice of a committed change', async () => {
    const streamStart = Date.now();
    server = startServer(databaseUrl);
    await waitForHealth(base, server);
    const login = async (email: string) => (await (await fetch(`${base}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: 'demo123' }) })).json()) as { token: string };
    const rider = (await login('rider1@rideway.demo')).token;
    const drivers = await Promise.all(['driver1@rideway.demo', 'driver3@rideway.demo'].map(async (email) => (await login(email)).token));
    let running = true;
    let steps = 0;
    const stream = async (driver: string) => {
      while (running) {
        const booked = await call('/api/bookings', rider, { pickup: { lat: 51.5308, lng: -0.1238, add: 'Kings Cross' }, drop: { lat: 51.5081, lng: -0.0759, add: 'Tower' }, carType: 'Economy' }).catch(() => undefined);
        const id = booked?.body.id as string | undefined;
        if (!id) continue;
        for (const [path, body] of [['accept', {}], ['arrive', {}], ['start', {}], ['reach', {}], ['pay', { payment_mode: 'cash' }]] as const) {
          const result = await call(`/api/bookings/${id}/${path}`, driver, body).catch(() => undefined);
          if (!result || result.status !== 200) break;
          steps += 1;
        }
        await call(`/api/bookings/${id}/complete`, rider, { rating: 5 }).catch(() => undefined);
      }
    };
    const streams = drivers.map((driver) => stream(driver));
    await new Promise((resolve) => setTimeout(resolve, 2500));
    server.kill('SIGKILL');
    running = false;
    await Promise.all(streams);
    expect(steps).toBeGreaterThan(5);

    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      const { rows: all } = await db.query<{ id: string; status: string }>('select id, status from bookings where booking_date >= $1', [streamStart]);
      expect(all.length).toBeGreaterThan(1);
      for (const booking of all) expect(BOOKING_STATUSES).toContain(booking.status);
      // No ledger entry without its booking change: trip money exists exactly for paid trips.
      const { rows: orphans } = await db.query(`select e.id from wallet_entries e join bookings b on b.id = e.booking_id where b.status not in ('PAID', 'COMPLETE', 'CANCELLED')`);
      expect(orphans).toEqual([]);
      const { rows: unpaid } = await db.query(`select b.id from bookings b where b.status in ('PAID', 'COMPLETE') and b.booking_date >= $1 and b.driver is not null and not exists (select 1 from wallet_entries e where e.booking_id = b.id and e.tx_ref = 'TripEarning')`, [streamStart]);
      expect(unpaid).toEqual([]);
      // Every committed step's notice is in the outbox.
      const { rows: silent } = await db.query(`select b.id from bookings b where b.booking_date >= $1 and b.status in ('ACCEPTED', 'ARRIVED', 'STARTED', 'REACHED', 'PAID', 'COMPLETE') and b.driver is not null and not exists (select 1 from outbox o where o.recipient = b.customer and o.payload->'params'->>'bookingId' = b.id and o.payload->>'msg' = 'Your driver is on the way.')`, [streamStart]);
      expect(silent).toEqual([]);
      const { rows: paidSilent } = await db.query(`select b.id from bookings b where b.booking_date >= $1 and b.status in ('PAID', 'COMPLETE') and b.driver is not null and not exists (select 1 from outbox o where o.recipient = b.customer and o.payload->'params'->>'bookingId' = b.id and o.payload->>'msg' = 'Payment received. Thank you!')`, [streamStart]);
      expect(paidSilent).toEqual([]);
      // A driver is busy exactly when it holds an active trip.
      const { rows: queues } = await db.query(`select u.id, u.queue, exists (select 1 from bookings b where b.driver = u.id and b.status in ('ACCEPTED', 'ARRIVED', 'STARTED', 'REACHED')) as active from users u where u.usertype = 'driver'`);
      for (const row of queues as { queue: boolean; active: boolean }[]) expect(row.queue).toBe(row.active);
    } finally {
      await db.end();
    }

    // After a restart the interrupted trips carry on.
    server = startServer(databaseUrl);
    await waitForHealth(base, server);
    const active = (await call('/api/bookings', drivers[0] ?? '')).body.bookings as { id: string; status: string; driver: string | null }[];
    const stuck = active.find((b) => ['ACCEPTED', 'ARRIVED', 'STARTED', 'REACHED'].includes(b.status));
    if (stuck) {
      const order = ['ACCEPTED', 'ARRIVED', 'STARTED', 'REACHED'];
      const next = ['arrive', 'start', 'reach', 'pay'].slice(order.indexOf(stuck.status));
      for (const path of next) expect((await call(`/api/bookings/${stuck.id}/${path}`, drivers[0] ?? '', path === 'pay' ? { payment_mode: 'cash' } : {})).status, path).toBe(200);
    }
    server.kill('SIGTERM');
  }, 360_000);
});
