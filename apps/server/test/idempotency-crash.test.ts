import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './free-port';
import { createDemoDatabase } from './postgres';
import { startSourceServer, waitForHealth } from './server-process';

/**
 * Issue 15, point 11, the attack as the crash test saw it: writes commit, the server is killed
 * before the client hears back, the client retries. With an `Idempotency-Key` every retry answers
 * the first result or 409, and every booking and credit exists once per key. Runs on the real
 * PostgreSQL (DATABASE_URL), whose commits survive a kill.
 */
const serverUrl = process.env.DATABASE_URL;
// Set in beforeAll to a port the system hands out as free (a fixed range once met the machine's own services).
let port = 0;
let base = '';

function startServer(databaseUrl: string): ChildProcess {
  return startSourceServer(port, { DATABASE_URL: databaseUrl, REDIS_URL: '', RATE_LIMITS: 'off' });
}

type Answer = { status: number; body: string; replayed: boolean };
type Sent = { key: string; path: string; token: string; body: unknown; heard?: Answer };

const send = async ({ key, path, token, body }: Sent): Promise<Answer> => {
  const response = await fetch(`${base}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': key }, body: JSON.stringify(body) });
  return { status: response.status, body: await response.text(), replayed: response.headers.get('idempotent-replayed') === 'true' };
};

describe.skipIf(!serverUrl)('Idempotency-Key across a server killed mid-stream (issue 15, point 11)', () => {
  let databaseUrl = '';
  let dropDatabase = () => Promise.resolve();
  let server: ChildProcess | undefined;

  beforeAll(async () => {
    port = await freePort();
    base = `http://127.0.0.1:${String(port)}`;
    const created = await createDemoDatabase(serverUrl ?? '', 'idem');
    databaseUrl = created.url;
    dropDatabase = created.drop;
  }, 120_000);

  afterAll(async () => {
    server?.kill('SIGKILL');
    await dropDatabase();
  });

  it('a retry after the restart answers the first result or 409, and writes nothing: one booking or credit per key', async () => {
    server = startServer(databaseUrl);
    await waitForHealth(base, server);
    const login = async (email: string) => ((await (await fetch(`${base}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: 'demo123' }) })).json()) as { token: string; user: { id: string } });
    const [rider1, rider2, admin, driver] = await Promise.all(['rider1@rideway.demo', 'rider2@rideway.demo', 'admin@rideway.demo', 'driver5@rideway.demo'].map(login));
    if (!rider1 || !rider2 || !admin || !driver) throw new Error('demo accounts missing');
    const trip = { pickup: { lat: 51.5308, lng: -0.1238, add: 'Kings Cross' }, drop: { lat: 51.5081, lng: -0.0759, add: 'Tower' }, carType: 'Economy' };
    const streamStart = Date.now();
    const sent: Sent[] = [];
    let running = true;
    const stream = async (next: () => Omit<Sent, 'key'>) => {
      while (running) {
        const request: Sent = { key: randomUUID(), ...next() };
        sent.push(request);
        request.heard = await send(request).catch(() => undefined);
      }
    };
    const streams = [
      stream(() => ({ path: '/api/bookings', token: rider1.token, body: trip })),
      stream(() => ({ path: '/api/bookings', token: rider2.token, body: trip })),
      stream(() => ({ path: '/api/wallet/credit', token: admin.token, body: { uid: driver.user.id, amount: 1 } })),
      stream(() => ({ path: '/api/wallet/credit', token: admin.token, body: { uid: rider1.user.id, amount: 1 } })),
    ];
    await new Promise((resolve) => setTimeout(resolve, 2500));
    server.kill('SIGKILL');
    running = false;
    await Promise.all(streams);
    const unheard = sent.filter((request) => request.heard === undefined);
    expect(sent.length - unheard.length).toBeGreaterThan(5);

    server = startServer(databaseUrl);
    await waitForHealth(base, server);
    const ids = new Map<string, string>();
    for (const request of sent) {
      const retry = await send(request);
      if (request.heard) {
        // Heard before the kill: the answer was stored before it was sent.
        expect([retry.status, retry.body, retry.replayed]).toEqual([request.heard.status, request.heard.body, true]);
      } else {
        expect([200, 201, 409]).toContain(retry.status);
        if (retry.status === 409) expect(retry.body).toContain('idempotency_key_in_use');
      }
      if (request.path === '/api/bookings' && retry.status === 201) {
        const id = (JSON.parse(retry.body) as { id: string }).id;
        expect(ids.has(id), `booking ${id} answered for two keys`).toBe(false);
        ids.set(id, request.key);
      }
    }

    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      const keysOf = async (uids: string[], status: number) =>
        Number((await db.query<{ n: string }>(`select count(*) as n from idempotency_keys where uid = any($1) and (state = 'committed' or (state = 'done' and status_code = $2))`, [uids, status])).rows[0]?.n);
      // Every write spent its key in its own transaction: as many bookings as keys spent on them...
      const { rows: booked } = await db.query<{ id: string }>('select id from bookings where customer = any($1) and booking_date >= $2', [[rider1.user.id, rider2.user.id], streamStart]);
      expect(booked.length).toBe(await keysOf([rider1.user.id, rider2.user.id], 201));
      for (const id of ids.keys()) expect(booked.map((row) => row.id)).toContain(id);
      // ...and as many admin credits as keys spent on them.
      const { rows: credits } = await db.query<{ n: string }>(`select count(*) as n from wallet_entries where tx_ref = 'AdminCredit' and uid = any($1) and at >= $2`, [[driver.user.id, rider1.user.id], streamStart]);
      expect(Number(credits[0]?.n)).toBe(await keysOf([admin.user.id], 200));
    } finally {
      await db.end();
    }
    server.kill('SIGTERM');
  }, 360_000);
});
