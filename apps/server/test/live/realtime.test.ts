import { chatMessageSchema } from '@rideway/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { bookings } from '../../src/db/schema';
import type { UserRow } from '../../src/modules/users/accounts';
import { drop, pickup, sedan } from '../fixtures';
import { codeOf, createTestApp, ENGINES, NEAR_PICKUP, type TestApp } from '../harness';

describe.each(ENGINES)('the WebSocket gateway, tracking and chat on %s (issue 5)', (engine) => {
  let t: TestApp;
  let admin: UserRow;
  let rider: UserRow;
  let driver: UserRow;
  let bookingId: string;

  const post = (as: UserRow, url: string, payload: Record<string, unknown> = {}) => t.request({ method: 'POST', url, as, payload });

  beforeAll(async () => {
    t = await createTestApp(engine);
    admin = await t.makeUser('admin');
    await post(admin, '/api/cartypes', sedan);
    rider = await t.makeUser('rider');
    driver = await t.makeUser('driver', { carType: 'Sedan' });
    await t.goOnline(driver);
    bookingId = (await post(rider, '/api/bookings', { pickup, drop, carType: 'Sedan' })).json().id as string;
  });
  afterAll(() => t.close());

  it('refuses an upgrade without a session, and a plain request without an upgrade', async () => {
    await t.live(rider);
    const address = t.app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const anonymous = new WebSocket(`ws://127.0.0.1:${String(port)}/api/ws`);
    const status = await new Promise<number | undefined>((resolve) => {
      anonymous.once('unexpected-response', (_request, response) => { resolve(response.statusCode); });
      anonymous.once('open', () => { resolve(undefined); });
    });
    expect(status).toBe(401);
    expect(codeOf(await t.request({ method: 'GET', url: '/api/ws', as: rider }))).toBe('validation_error');
  });

  it('a stranger cannot subscribe to another booking\'s topics', async () => {
    const stranger = await t.live(await t.makeUser('rider'));
    const otherDriver = await t.live(await t.makeUser('driver', { carType: 'Sedan' }));
    const fleet = await t.live(await t.makeUser('fleetadmin'));
    for (const topic of [`booking:${bookingId}`, `tracking:${bookingId}`, `chat:${bookingId}`]) {
      expect(await stranger.subscribe(topic)).toMatchObject({ type: 'error', code: 'forbidden', topic });
      expect(await otherDriver.subscribe(topic)).toMatchObject({ type: 'error', code: 'forbidden', topic });
      expect(await fleet.subscribe(topic)).toMatchObject({ type: 'error', code: 'forbidden', topic });
    }
    expect(await stranger.subscribe(`user:${rider.id}`)).toMatchObject({ type: 'error', code: 'forbidden' });
    expect(await stranger.subscribe('drivers:live')).toMatchObject({ type: 'error', code: 'forbidden' });
    expect(await stranger.subscribe('booking:no such id')).toMatchObject({ type: 'error', code: 'validation_error' });
    stranger.send({ type: 'location', lat: 1, lng: 1 });
    expect(await stranger.next((m) => m.type === 'error')).toMatchObject({ code: 'forbidden' });
    stranger.send({ type: 'dance' });
    expect(await stranger.next((m) => m.type === 'error')).toMatchObject({ code: 'validation_error' });
  });

  it('delivers the trip live: the offer, each status, the tracking points, and chat both ways', async () => {
    const riderLive = await t.live(rider);
    const driverLive = await t.live(driver);
    const adminLive = await t.live(admin);
    expect(await riderLive.subscribe(`booking:${bookingId}`)).toMatchObject({ type: 'subscribed', seq: expect.any(Number) });
    await riderLive.subscribe(`tracking:${bookingId}`);
    await driverLive.subscribe(`booking:${bookingId}`);
    expect(await adminLive.subscribe(`booking:${bookingId}`)).toMatchObject({ type: 'subscribed' });
    expect(await adminLive.subscribe(`chat:${bookingId}`)).toMatchObject({ type: 'error', code: 'forbidden' });
    expect(await adminLive.subscribe('drivers:live')).toMatchObject({ type: 'subscribed' });
    const snapshot = await adminLive.next((m) => m.event === 'snapshot');
    expect((snapshot.data as { drivers: { uid: string }[] }).drivers.map((d) => d.uid)).toContain(driver.id);

    await post(driver, `/api/bookings/${bookingId}/accept`);
    const accepted = await riderLive.next((m) => m.event === 'booking');
    expect(accepted).toMatchObject({ topic: `booking:${bookingId}`, data: { status: 'ACCEPTED', driver: driver.id, otp: false } });
    expect((await adminLive.next((m) => m.event === 'booking')).seq).toBe(accepted.seq);
    // The driver went busy on the live map.
    expect((await adminLive.next((m) => m.event === 'position' && (m.data as { uid: string }).uid === driver.id)).data).toMatchObject({ busy: true });

    await riderLive.subscribe(`chat:${bookingId}`);
    await driverLive.subscribe(`chat:${bookingId}`);
    expect((await post(driver, `/api/bookings/${bookingId}/chat`, { message: '  Outside in a blue car  ' })).statusCode).toBe(201);
    expect((await riderLive.next((m) => m.event === 'message')).data).toMatchObject({ message: 'Outside in a blue car', from: driver.id, source: 'driver', type: 'msg' });
    await post(rider, `/api/bookings/${bookingId}/chat`, { message: 'Coming' });
    expect((await driverLive.next((m) => m.event === 'message' && (m.data as { source: string }).source === 'customer')).data).toMatchObject({ message: 'Coming' });
    const chat = (await t.request({ method: 'GET', url: `/api/bookings/${bookingId}/chat`, as: rider })).json().messages as { message: string; msgDate: string; msgTime: string }[];
    expect(chat.map((m) => m.message)).toEqual(['Outside in a blue car', 'Coming']);
    expect(chat[0]).toMatchObject({ msgDate: '2026-11-22', msgTime: '10:00' });
    // The contract's shape is what clients rely on (the web app keys messages by smsId).
    for (const message of chat) expect(chatMessageSchema.parse(message)).toEqual(message);
    expect(codeOf(await post(rider, `/api/bookings/${bookingId}/chat`, { message: '   ' }))).toBe('validation_error');
    expect(codeOf(await post(rider, `/api/bookings/${bookingId}/chat`, { message: 'x'.repeat(1001) }))).toBe('validation_error');
    expect(codeOf(await t.request({ method: 'GET', url: `/api/bookings/${bookingId}/chat`, as: admin }))).toBe('forbidden');
    expect(codeOf(await t.request({ method: 'GET', url: `/api/bookings/${bookingId}/chat`, as: await t.makeUser('rider') }))).toBe('not_found');

    await post(driver, `/api/bookings/${bookingId}/arrive`);
    // Section 4: positions before the start are not tracked, yet the rider watches the driver come.
    await post(driver, '/api/driver/location', { lat: 51.5309, lng: -0.1239 });
    expect((await riderLive.next((m) => m.event === 'driver')).data).toMatchObject({ status: 'ARRIVED', lat: 51.5309, lng: -0.1239 });
    expect((await t.request({ method: 'GET', url: `/api/bookings/${bookingId}/tracking`, as: rider })).json().tracking).toEqual([]);
    await post(driver, `/api/bookings/${bookingId}/start`);
    expect((await riderLive.next((m) => m.event === 'point')).data).toMatchObject({ status: 'STARTED', lat: 51.5309, lng: -0.1239 });
    await post(driver, '/api/driver/location', { lat: 51.52, lng: -0.1 });
    expect((await riderLive.next((m) => m.event === 'point')).data).toMatchObject({ status: 'STARTED', lat: 51.52, lng: -0.1 });
    // The driver's position also arrives over the WebSocket.
    driverLive.send({ type: 'location', lat: drop.lat, lng: drop.lng });
    expect((await riderLive.next((m) => m.event === 'point')).data).toMatchObject({ lat: drop.lat, lng: drop.lng });
    await post(driver, `/api/bookings/${bookingId}/reach`);
    expect((await riderLive.next((m) => m.event === 'point')).data).toMatchObject({ status: 'REACHED', lat: drop.lat, lng: drop.lng });
    const tracked = (await t.request({ method: 'GET', url: `/api/bookings/${bookingId}/tracking`, as: admin })).json().tracking as { status: string }[];
    expect(tracked.map((p) => p.status)).toEqual(['STARTED', 'STARTED', 'STARTED', 'REACHED']);
    expect(codeOf(await t.request({ method: 'GET', url: `/api/bookings/${bookingId}/tracking`, as: await t.makeUser('driver') }))).toBe('not_found');
    // The driver's wallet change and the rider's notices reach their user topics.
    const driverUser = await t.live(driver);
    await driverUser.subscribe('user:me');
    await post(driver, `/api/bookings/${bookingId}/pay`, { payment_mode: 'cash' });
    // Each event comes under the name the client subscribed with, not the topic's inner name.
    expect(await driverUser.next((m) => m.event === 'wallet')).toMatchObject({ topic: 'user:me', data: { txRef: expect.any(String) } });
    expect((await driverUser.next((m) => m.event === 'notice')).data).toMatchObject({ screen: 'wallet' });
    // After the trip the chat is closed.
    expect(codeOf(await post(rider, `/api/bookings/${bookingId}/complete`, { rating: 5 }))).toBeUndefined();
    expect(codeOf(await post(rider, `/api/bookings/${bookingId}/chat`, { message: 'Thanks' }))).toBe('invalid_transition');
  });

  it('a driver whose offer is withdrawn stops receiving the booking\'s events', async () => {
    const second = await t.makeUser('driver', { carType: 'Sedan' });
    await t.goOnline(second, NEAR_PICKUP);
    const other = await t.makeUser('rider');
    const id = (await post(other, '/api/bookings', { pickup, drop, carType: 'Sedan' })).json().id as string;
    const row = (await t.db.select().from(bookings).where(eq(bookings.id, id)))[0];
    expect(row?.requestedDrivers).toHaveProperty(second.id);
    // The offer's own events are out before the driver subscribes.
    await t.app.ctx.live.relay.drain();
    const secondLive = await t.live(second);
    expect(await secondLive.subscribe(`booking:${id}`)).toMatchObject({ type: 'subscribed' });
    await post(other, `/api/bookings/${id}/cancel`, { reason: 'Changed my mind' });
    expect(await secondLive.next((m) => m.type === 'error')).toMatchObject({ code: 'forbidden', topic: `booking:${id}` });
    expect(await secondLive.receives((m) => m.event === 'booking' && (m.data as { status: string }).status === 'CANCELLED')).toBe(false);
  });

  it('a reconnecting client gets what it missed, from its cursor, once', async () => {
    const other = await t.makeUser('rider');
    const courier = await t.makeUser('driver', { carType: 'Sedan' });
    await t.goOnline(courier, NEAR_PICKUP);
    const id = (await post(other, '/api/bookings', { pickup, drop, carType: 'Sedan' })).json().id as string;
    await t.db.update(bookings).set({ requestedDrivers: { [courier.id]: true } }).where(eq(bookings.id, id));
    // The booking's NEW event is relayed after the request returns; the cursor is taken after it.
    await t.app.ctx.live.relay.drain();
    const first = await t.live(other);
    const cursor = (await first.subscribe(`booking:${id}`)).seq ?? 0;
    await first.close();
    // While the rider is away, the trip moves on.
    await post(courier, `/api/bookings/${id}/accept`);
    await post(courier, `/api/bookings/${id}/arrive`);
    await t.app.ctx.live.relay.drain();
    const again = await t.live(other);
    await again.subscribe(`booking:${id}`, cursor);
    const replayed = again.messages.filter((m) => m.event === 'booking');
    expect(replayed.map((m) => (m.data as { status: string }).status)).toEqual(['ACCEPTED', 'ARRIVED']);
    expect(replayed.every((m, i) => i === 0 || (m.seq ?? 0) > (replayed[i - 1]?.seq ?? 0))).toBe(true);
    // And then live, with nothing repeated.
    await post(courier, `/api/bookings/${id}/start`);
    expect((await again.next((m) => m.event === 'booking' && (m.data as { status: string }).status === 'STARTED')).seq).toBeGreaterThan(replayed[1]?.seq ?? 0);
    expect(again.messages.filter((m) => m.event === 'booking' && (m.data as { status: string }).status === 'ARRIVED')).toHaveLength(1);
  });

  it('answers pings, and validates positions', async () => {
    const client = await t.live(rider);
    client.send({ type: 'ping' });
    expect(await client.next((m) => m.type === 'pong')).toEqual({ type: 'pong' });
    for (const payload of [{}, { lat: 91, lng: 0 }, { lat: 0, lng: 'x' }]) expect(codeOf(await post(driver, '/api/driver/location', payload))).toBe('validation_error');
    expect(codeOf(await t.request({ method: 'PATCH', url: '/api/driver/status', as: driver, payload: { driverActiveStatus: 'yes' } }))).toBe('validation_error');
    expect(codeOf(await post(rider, '/api/driver/location', { lat: 1, lng: 1 }))).toBe('forbidden');
  });
});
