import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLive, type LiveClient } from '../live-client';
import { twoProcesses } from '../two-processes';

const serverUrl = process.env.DATABASE_URL;
const redisUrl = process.env.REDIS_URL;

/**
 * Issue 5: two server processes on one PostgreSQL and one Redis behave as one: the geo index and
 * the events are shared, so a client of one process sees what a request to the other changed.
 */
describe.skipIf(!serverUrl || !redisUrl)('two server processes on one PostgreSQL and one Redis', () => {
  const processes = twoProcesses(serverUrl ?? '', redisUrl ?? '', 'scale');
  const { base, call, login } = processes;
  const clients: LiveClient[] = [];
  const live = async (index: 0 | 1, token: string) => {
    const client = await openLive(`${base(index).replace('http', 'ws')}/api/ws`, token);
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    await processes.start();
  }, 180_000);

  afterAll(async () => {
    for (const client of clients) await client.close();
    await processes.stop();
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
