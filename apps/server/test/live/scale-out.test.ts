import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLive, type LiveClient } from '../live-client';
import { createDemoDatabase } from '../postgres';

const serverUrl = process.env.DATABASE_URL;
const redisUrl = process.env.REDIS_URL;

/**
 * Issue 5: two server processes on one PostgreSQL and one Redis behave as one: the geo index and
 * the events are shared, so a client of one process sees what a request to the other changed.
 */
describe.skipIf(!serverUrl || !redisUrl)('two server processes on one PostgreSQL and one Redis', () => {
  const prefix = `rideway-test-${randomUUID().slice(0, 8)}`;
  const ports = [4100 + Math.floor(Math.random() * 400), 4600 + Math.floor(Math.random() * 400)] as const;
  const servers: ChildProcess[] = [];
  const clients: LiveClient[] = [];
  let databaseUrl = '';
  let dropDatabase = () => Promise.resolve();

  const base = (index: 0 | 1) => `http://127.0.0.1:${String(ports[index])}`;
  const call = async (index: 0 | 1, method: string, path: string, token?: string, body?: unknown) => {
    const response = await fetch(`${base(index)}${path}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json().catch(() => ({}))) as Record<string, unknown> };
  };
  const login = async (index: 0 | 1, email: string) => (await call(index, 'POST', '/api/auth/login', undefined, { email, password: 'demo123' })).body.token as string;
  const live = async (index: 0 | 1, token: string) => {
    const client = await openLive(`${base(index).replace('http', 'ws')}/api/ws`, token);
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    const created = await createDemoDatabase(serverUrl ?? '', 'scale');
    databaseUrl = created.url;
    dropDatabase = created.drop;
    for (const port of ports) {
      servers.push(
        spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, '..', '..', 'src', 'main.ts')], {
          cwd: join(import.meta.dirname, '..', '..'),
          env: { ...process.env, DATABASE_URL: databaseUrl, REDIS_URL: redisUrl, REDIS_PREFIX: prefix, PORT: String(port), DEMO_DATA: '0', LOG_LEVEL: 'silent', DRIVER_TIMEOUT_S: '0' },
          stdio: 'ignore',
        }),
      );
    }
    for (const index of [0, 1] as const) {
      for (let i = 0; ; i += 1) {
        const healthy = await fetch(`${base(index)}/api/health`).then((r) => r.ok).catch(() => false);
        if (healthy) break;
        if (i > 300) throw new Error('server did not start');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }, 120_000);

  afterAll(async () => {
    for (const client of clients) await client.close();
    for (const server of servers) server.kill('SIGTERM');
    await Promise.all(servers.map((server) => new Promise((resolve) => server.once('exit', resolve))));
    await dropDatabase();
  }, 60_000);

  it('shares the live driver map, the geo index, offers and booking events across processes', async () => {
    const [adminToken, riderToken, driverToken] = await Promise.all([login(1, 'admin@rideway.demo'), login(0, 'rider1@rideway.demo'), login(0, 'driver1@rideway.demo')]);
    const me = (await call(0, 'GET', '/api/me', driverToken)).body.user as { id: string; carType: string };

    // An admin watching the map on process B sees a driver report its position to process A.
    const adminLive = await live(1, adminToken);
    expect(await adminLive.subscribe('drivers:live')).toMatchObject({ type: 'subscribed' });
    const somewhere = { lat: 51.5412, lng: -0.1426 };
    expect((await call(0, 'POST', '/api/driver/location', driverToken, somewhere)).status).toBe(200);
    const seen = await adminLive.next((m) => m.event === 'position' && (m.data as { uid: string }).uid === me.id);
    expect(seen.data).toMatchObject({ location: somewhere });

    const driverLive = await live(0, driverToken);
    await driverLive.subscribe('user:me');

    // The rider books on process B at the driver's spot; B's dispatch finds the driver in the shared index.
    const booked = await call(1, 'POST', '/api/bookings', riderToken, { pickup: { ...somewhere, add: 'Camden' }, drop: { lat: 51.5081, lng: -0.0759, add: 'Tower of London' }, carType: me.carType });
    expect(booked.status).toBe(201);
    const id = booked.body.id as string;
    const offer = await driverLive.next((m) => m.event === 'offer' && (m.data as { id: string }).id === id);
    expect(offer.topic).toBe('user:me');
    expect(((await call(0, 'GET', '/api/driver/tasks', driverToken)).body.tasks as { id: string }[]).map((task) => task.id)).toContain(id);

    // The rider follows the booking on process B; the driver accepts on process A.
    const riderLive = await live(1, riderToken);
    await riderLive.subscribe(`booking:${id}`);
    expect((await call(0, 'POST', `/api/bookings/${id}/accept`, driverToken, {})).status).toBe(200);
    const accepted = await riderLive.next((m) => m.event === 'booking' && (m.data as { status: string }).status === 'ACCEPTED');
    expect(accepted.data).toMatchObject({ id, driver: me.id });
    // Each event is delivered once, with one cursor, whichever process relayed it.
    expect(riderLive.messages.filter((m) => m.seq === accepted.seq)).toHaveLength(0);
  });
});
