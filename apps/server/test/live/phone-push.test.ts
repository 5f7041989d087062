import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox, pushDeliveries, pushSubscriptions, users } from '../../src/db/schema';
import { checkExpoReceipts, EXPO_RECEIPT_DELAY_MS, PUSH_LEASE_MS, pushChannels, relayPush, type PushChannels } from '../../src/jobs/push-relay';
import { enqueue } from '../../src/modules/outbox/service';
import { parseServiceAccount } from '../../src/providers/push/fcm';
import { seedDemoData } from '../../src/seed/demo-data';
import { codeOf, createTestApp, ENGINES, type TestApp } from '../harness';
import { startExpoStandIn, type ExpoStandIn } from '../stand-ins/expo';
import { startFcmStandIn, type FcmStandIn } from '../stand-ins/fcm';
import { listenLocally } from '../stand-ins/stand-in-server';

/**
 * Issue 19 items 3, 4 and 7: phone push through FCM HTTP v1 (firebase-admin) and Expo
 * (expo-server-sdk), each SDK talking to a local stand-in of the provider's documented API
 * (stand-ins/fcm.ts, stand-ins/expo.ts); the admin's notification to every device of the demo
 * users; promotions turned off by the user.
 */

const PROJECT = 'rideway-test';
const CLIENT_EMAIL = 'push@rideway-test.iam.gserviceaccount.com';
const keys = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
const serviceAccount = { type: 'service_account', project_id: PROJECT, private_key_id: 'k1', private_key: keys.privateKey, client_email: CLIENT_EMAIL, token_uri: 'https://oauth2.googleapis.com/token' };
const browserKeys = { p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM', auth: 'tBHItJI5svbpez7KI4CCXg' };

let fcm: FcmStandIn;
let expo: ExpoStandIn;
/** A Web Push service stand-in: counts what each endpoint path received. */
const webReceived: string[] = [];
let webPush: { url: string; close: () => Promise<void> };

const fcmToken = (name: string) => `${name}:APA91b${'x'.repeat(30)}`;
const expoToken = (name: string) => `ExponentPushToken[${name}]`;

// One pair of stand-ins for the file: the Expo SDK reads its address once per process.
beforeAll(async () => {
  fcm = await startFcmStandIn({ projectId: PROJECT, clientEmail: CLIENT_EMAIL, publicKeyPem: keys.publicKey });
  expo = await startExpoStandIn();
  webPush = await listenLocally(
    createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        webReceived.push(request.url ?? '');
        response.writeHead(201).end();
      });
    }),
  );
});
afterAll(async () => {
  await fcm.close();
  await expo.close();
  await webPush.close();
});

const env = () => ({
  FIREBASE_SERVICE_ACCOUNT: JSON.stringify(serviceAccount),
  EXPO_PUSH_URL: expo.url,
  EXPO_ACCESS_TOKEN: 'expo-access-token-0123',
  PUSH_TIMEOUT_MS: '1500',
  PUSH_ALLOW_PRIVATE_ENDPOINTS_FOR_TESTS: '1',
});

describe.each(ENGINES)('phone push on %s (issue 19)', (engine) => {
  let t: TestApp;
  let channels: PushChannels;

  beforeAll(async () => {
    t = await createTestApp(engine, env());
    channels = await pushChannels(t.app.ctx);
  });
  afterAll(async () => {
    await channels.fcm?.close();
    await t.close();
  });

  const subscribe = async (user: Awaited<ReturnType<TestApp['makeUser']>>, payload: Record<string, unknown>) => {
    const response = await t.request({ method: 'POST', url: '/api/push/subscriptions', as: user, payload });
    expect(response.statusCode).toBe(201);
  };
  const pushRow = async (uid: string) => (await t.db.select().from(outbox).where(and(eq(outbox.recipient, uid), eq(outbox.channel, 'push'))))[0];
  const devicesOf = async (uid: string) => (await t.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.uid, uid))).map((device) => device.endpoint).sort();
  const count = (list: readonly string[], item: string) => list.filter((entry) => entry === item).length;

  it('keeps an Expo token with its platform, and refuses malformed ones', async () => {
    const rider = await t.makeUser('rider');
    await subscribe(rider, { kind: 'expo', token: expoToken(`keep-${engine}`), platform: 'IOS' });
    expect((await t.db.select().from(users).where(eq(users.id, rider.id)))[0]).toMatchObject({ pushToken: expoToken(`keep-${engine}`), userPlatform: 'IOS' });
    for (const payload of [{ kind: 'expo', token: 'ExponentPushToken[]' }, { kind: 'expo', token: 'ExponentPushToken[a b]' }, { kind: 'expo', token: expoToken('x'), platform: 'WEB' }]) {
      expect(codeOf(await t.request({ method: 'POST', url: '/api/push/subscriptions', as: rider, payload }))).toBe('validation_error');
    }
  });

  it('FCM: Android and iOS tokens get the message through the v1 API with a Bearer token from the service account', async () => {
    const rider = await t.makeUser('rider');
    await subscribe(rider, { kind: 'fcm', token: fcmToken(`android-${engine}`) });
    await subscribe(rider, { kind: 'apns', token: fcmToken(`ios-${engine}`) });
    await enqueue(t.db, { channel: 'push', recipient: rider.id, payload: { title: 'Rideway', msg: 'Your driver is on the way.', screen: 'BookedCab', params: { bookingId: 'b1' } } }, t.clock.now);
    expect(await relayPush(t.db, channels, t.clock.now)).toEqual({ sent: 2, failed: 0 });
    const android = fcm.accepted.find((entry) => entry.token === fcmToken(`android-${engine}`));
    expect(android?.message).toMatchObject({ notification: { title: 'Rideway', body: 'Your driver is on the way.' }, data: { msg: 'Your driver is on the way.', screen: 'BookedCab', params: '{"bookingId":"b1"}' } });
    expect(fcm.accepted.some((entry) => entry.token === fcmToken(`ios-${engine}`))).toBe(true);
    // The OAuth token was asked for with a signed assertion the stand-in verified.
    expect(fcm.tokenRequests).toBeGreaterThanOrEqual(1);
    expect(await pushRow(rider.id)).toMatchObject({ deliveredAt: t.clock.now, lastError: null, attempts: 1 });
    expect(await relayPush(t.db, channels, t.clock.now)).toEqual({ sent: 0, failed: 0 });
  });

  it('FCM: a token reported UNREGISTERED or INVALID_ARGUMENT is removed and not retried', async () => {
    const rider = await t.makeUser('rider');
    const [gone, invalid] = [fcmToken(`gone-${engine}`), fcmToken(`invalid-${engine}`)];
    await subscribe(rider, { kind: 'fcm', token: gone });
    await subscribe(rider, { kind: 'apns', token: invalid });
    fcm.script.set(gone, ['unregistered']);
    fcm.script.set(invalid, ['invalid']);
    await enqueue(t.db, { channel: 'push', recipient: rider.id, payload: { title: 'Rideway', msg: 'Hello' } }, t.clock.now);
    expect(await relayPush(t.db, channels, t.clock.now)).toEqual({ sent: 0, failed: 0 });
    expect(await devicesOf(rider.id)).toEqual([]);
    // The newest phone was the section 3 pushToken: it is cleared with it.
    expect((await t.db.select().from(users).where(eq(users.id, rider.id)))[0]).toMatchObject({ pushToken: null });
    expect(await pushRow(rider.id)).toMatchObject({ attempts: 1, lastError: '2 device(s) gone and forgotten' });
    expect(await pushRow(rider.id).then((row) => row?.deliveredAt)).toBe(t.clock.now);
    expect(await relayPush(t.db, channels, t.clock.now + 3_600_000)).toEqual({ sent: 0, failed: 0 });
    expect(count(fcm.attempts, gone) + count(fcm.attempts, invalid)).toBe(2);
  });

  it('FCM: a 500, a timeout and a malformed answer are retried later and then delivered, once per device', async () => {
    const rider = await t.makeUser('rider');
    const [flaky, slow, garbled, fine] = ['flaky', 'slow', 'garbled', 'fine'].map((name) => fcmToken(`${name}-${engine}`)) as [string, string, string, string];
    for (const token of [flaky, slow, garbled, fine]) await subscribe(rider, { kind: 'fcm', token });
    fcm.script.set(flaky, ['internal']);
    fcm.script.set(slow, ['hang']);
    fcm.script.set(garbled, ['garbage']);
    await enqueue(t.db, { channel: 'push', recipient: rider.id, payload: { title: 'Rideway', msg: 'Retry me' } }, t.clock.now);
    expect(await relayPush(t.db, channels, t.clock.now)).toEqual({ sent: 1, failed: 1 });
    const pending = await pushRow(rider.id);
    expect(pending).toMatchObject({ deliveredAt: null, attempts: 1 });
    expect(pending?.lastError).toMatch(/internal|Internal error/i);
    expect(pending?.lastError).toContain('(and 2 more)');
    // Not before its retry time; then only the three devices still waiting are sent to.
    expect(await relayPush(t.db, channels, t.clock.now + 1000)).toEqual({ sent: 0, failed: 0 });
    expect(await relayPush(t.db, channels, t.clock.now + 31_000)).toEqual({ sent: 3, failed: 0 });
    expect(await pushRow(rider.id)).toMatchObject({ deliveredAt: t.clock.now + 31_000, attempts: 2, lastError: null });
    expect(count(fcm.attempts, fine)).toBe(1);
    for (const token of [flaky, slow, garbled]) expect(count(fcm.attempts, token)).toBe(2);
    expect(await devicesOf(rider.id)).toHaveLength(4);
  });

  it('Expo: tickets for each token, the access token sent, DeviceNotRegistered removes the token', async () => {
    const rider = await t.makeUser('rider');
    const [ok, gone] = [expoToken(`ok-${engine}`), expoToken(`gone-${engine}`)];
    await subscribe(rider, { kind: 'expo', token: ok, platform: 'ANDROID' });
    await subscribe(rider, { kind: 'expo', token: gone, platform: 'IOS' });
    expo.script.set(gone, ['gone']);
    await enqueue(t.db, { channel: 'push', recipient: rider.id, payload: { title: 'Rideway', msg: 'Driver arrived', screen: 'BookedCab', params: { bookingId: 'b2' } } }, t.clock.now);
    expect(await relayPush(t.db, channels, t.clock.now)).toEqual({ sent: 1, failed: 0 });
    const accepted = expo.accepted.find((entry) => entry.token === ok);
    expect(accepted?.message).toMatchObject({ to: ok, title: 'Rideway', body: 'Driver arrived', data: { msg: 'Driver arrived', screen: 'BookedCab', params: { bookingId: 'b2' } } });
    expect(expo.authorizations.at(-1)).toBe('Bearer expo-access-token-0123');
    expect(await devicesOf(rider.id)).toEqual([ok]);
    const delivery = (await t.db.select().from(pushDeliveries).where(eq(pushDeliveries.device, ok)))[0];
    expect(delivery).toMatchObject({ kind: 'expo', ticket: accepted?.ticket, receiptCheckedAt: null });
    expect(await relayPush(t.db, channels, t.clock.now + 3_600_000)).toEqual({ sent: 0, failed: 0 });
    expect(count(expo.attempts, gone)).toBe(1);
  });

  it("Expo: a receipt saying DeviceNotRegistered removes the token; receipts are read once, after Expo's delay", async () => {
    const rider = await t.makeUser('rider');
    const [kept, removed] = [expoToken(`kept-${engine}`), expoToken(`removed-${engine}`)];
    await subscribe(rider, { kind: 'expo', token: kept });
    await subscribe(rider, { kind: 'expo', token: removed });
    await enqueue(t.db, { channel: 'push', recipient: rider.id, payload: { title: 'Rideway', msg: 'Receipts' } }, t.clock.now);
    expect(await relayPush(t.db, channels, t.clock.now)).toEqual({ sent: 2, failed: 0 });
    const tickets = expo.accepted.filter((entry) => entry.token === kept || entry.token === removed);
    for (const entry of tickets) expo.receipts.set(entry.ticket, entry.token === removed ? 'gone' : 'ok');
    const asked = expo.receiptRequests.length;
    expect(await checkExpoReceipts(t.db, channels, t.clock.now + 60_000)).toEqual({ checked: 0, gone: 0 });
    expect(expo.receiptRequests.length).toBe(asked);
    const later = t.clock.now + EXPO_RECEIPT_DELAY_MS;
    const result = await checkExpoReceipts(t.db, channels, later);
    expect(result.gone).toBe(1);
    expect(expo.receiptRequests.at(-1)).toEqual(expect.arrayContaining(tickets.map((entry) => entry.ticket)));
    expect(await devicesOf(rider.id)).toEqual([kept]);
    const second = await checkExpoReceipts(t.db, channels, later);
    expect(second.gone).toBe(0);
  });

  it('Expo: a 503, a timeout, a malformed answer and too few tickets are retried, then delivered', async () => {
    const rider = await t.makeUser('rider');
    const token = expoToken(`retry-${engine}`);
    await subscribe(rider, { kind: 'expo', token });
    await enqueue(t.db, { channel: 'push', recipient: rider.id, payload: { title: 'Rideway', msg: 'Eventually' } }, t.clock.now);
    let now = t.clock.now;
    const errors: (string | null | undefined)[] = [];
    for (const mode of ['fail', 'hang', 'garbage', 'fewerTickets'] as const) {
      expo.requestMode.push(mode);
      expect(await relayPush(t.db, channels, now)).toEqual({ sent: 0, failed: 1 });
      const row = await pushRow(rider.id);
      errors.push(row?.lastError);
      now = row?.nextAttemptAt ?? now;
    }
    expect(errors[0]).toContain('503');
    expect(errors[1]).toContain('did not answer');
    expect(errors.every((error) => typeof error === 'string' && error.startsWith('expo:'))).toBe(true);
    expect(await relayPush(t.db, channels, now)).toEqual({ sent: 1, failed: 0 });
    expect(await pushRow(rider.id)).toMatchObject({ attempts: 5, deliveredAt: now });
  });

  it('no message is lost when the server stops while sending: the claim expires and a restarted relay delivers it', async () => {
    const rider = await t.makeUser('rider');
    const phone = fcmToken(`restart-${engine}`);
    await subscribe(rider, { kind: 'fcm', token: phone });
    await enqueue(t.db, { channel: 'push', recipient: rider.id, payload: { title: 'Rideway', msg: 'Survives a restart' } }, t.clock.now);
    // The first process claims the message, and dies while FCM has not answered: its send never
    // completes, so it writes nothing (a stalled sender stands in for the dead process).
    let reachedProvider!: () => void;
    const reached = new Promise<void>((resolve) => { reachedProvider = resolve; });
    const dying: PushChannels = { ...channels, fcm: { send: () => { reachedProvider(); return new Promise(() => undefined); }, close: () => Promise.resolve() } };
    void relayPush(t.db, dying, t.clock.now);
    await reached;
    const claimed = await pushRow(rider.id);
    expect(claimed).toMatchObject({ deliveredAt: null, attempts: 0, nextAttemptAt: t.clock.now + PUSH_LEASE_MS });
    // Another process, meanwhile, skips it: it is claimed.
    const restarted = await pushChannels(t.app.ctx);
    try {
      expect(await relayPush(t.db, restarted, t.clock.now + 1000)).toEqual({ sent: 0, failed: 0 });
      expect(count(fcm.attempts, phone)).toBe(0);
      // Once the claim has expired, the restarted relay delivers it, once.
      expect(await relayPush(t.db, restarted, t.clock.now + PUSH_LEASE_MS)).toEqual({ sent: 1, failed: 0 });
      expect(count(fcm.attempts, phone)).toBe(1);
      expect(await pushRow(rider.id)).toMatchObject({ deliveredAt: t.clock.now + PUSH_LEASE_MS, attempts: 1 });
    } finally {
      await restarted.fcm?.close();
    }
  });

  it('promotions: a user turns them off and on; anonymous callers and bad bodies are refused', async () => {
    const rider = await t.makeUser('rider');
    const url = '/api/me/notification-preferences';
    expect((await t.request({ method: 'GET', url, as: rider })).json()).toEqual({ preferences: { promotions: true } });
    const off = await t.request({ method: 'PUT', url, as: rider, payload: { promotions: false } });
    expect(off.json()).toEqual({ preferences: { promotions: false } });
    expect((await t.db.select().from(users).where(eq(users.id, rider.id)))[0]?.promoNotifications).toBe(false);
    expect(codeOf(await t.request({ method: 'GET', url }))).toBe('not_logged_in');
    expect(codeOf(await t.request({ method: 'PUT', url, payload: { promotions: true } }))).toBe('not_logged_in');
    for (const payload of [{}, { promotions: 'no' }, { promotions: null }]) {
      expect(codeOf(await t.request({ method: 'PUT', url, as: rider, payload }))).toBe('validation_error');
    }
    expect((await t.db.select().from(users).where(eq(users.id, rider.id)))[0]?.promoNotifications).toBe(false);
    expect((await t.request({ method: 'PUT', url, as: rider, payload: { promotions: true } })).json()).toEqual({ preferences: { promotions: true } });
  });
});

describe.each(ENGINES)("the admin's Everyone notification on the demo data, on %s (issue 19 item 4)", (engine) => {
  let t: TestApp;
  let channels: PushChannels;
  beforeAll(async () => {
    t = await createTestApp(engine, env());
    await seedDemoData(t.db, t.clock.now);
    channels = await pushChannels(t.app.ctx);
  });
  afterAll(async () => {
    await channels.fcm?.close();
    await t.close();
  });

  it('reaches every browser subscription and phone token of the demo riders and drivers, counted at the stand-ins, except who turned promotions off', async () => {
    const people = await t.db.select().from(users).where(inArray(users.usertype, ['rider', 'driver']));
    expect(people.length).toBeGreaterThanOrEqual(7);
    // The demo data stores no device: each demo user gets one or two, of every kind in turn.
    const kinds = ['webpush', 'fcm', 'apns', 'expo'] as const;
    const expected = { webpush: [] as string[], fcm: [] as string[], expo: [] as string[] };
    for (const [index, person] of people.entries()) {
      const tag = `${engine}-${person.id}`;
      for (const [slot, kind] of (index % 3 === 0 ? [kinds[index % 4], 'webpush' as const] : [kinds[index % 4]]).entries()) {
        if (kind === 'webpush') {
          const response = await t.request({ method: 'POST', url: '/api/push/subscriptions', as: person, payload: { kind, subscription: { endpoint: `${webPush.url}/demo/${tag}/${String(slot)}`, keys: browserKeys } } });
          expect(response.json()).toEqual({ kind });
          expected.webpush.push(`/demo/${tag}/${String(slot)}`);
        } else if (kind === 'expo') {
          await t.request({ method: 'POST', url: '/api/push/subscriptions', as: person, payload: { kind, token: expoToken(`demo-${tag}`), platform: 'ANDROID' } });
          expected.expo.push(expoToken(`demo-${tag}`));
        } else {
          await t.request({ method: 'POST', url: '/api/push/subscriptions', as: person, payload: { kind, token: fcmToken(`demo-${kind}-${tag}`) } });
          expected.fcm.push(fcmToken(`demo-${kind}-${tag}`));
        }
      }
    }
    // One rider has turned promotions off: the Everyone notification skips all of that rider's devices.
    const quiet = people.find((person) => person.email === 'rider2@rideway.demo');
    expect(quiet).toBeDefined();
    if (!quiet) return;
    await t.request({ method: 'PUT', url: '/api/me/notification-preferences', as: quiet, payload: { promotions: false } });
    const quietDevices = (await t.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.uid, quiet.id))).map((device) => device.endpoint);
    for (const list of Object.values(expected)) {
      for (const device of quietDevices) {
        const at = list.findIndex((entry) => device.endsWith(entry));
        if (at >= 0) list.splice(at, 1);
      }
    }

    const admin = (await t.db.select().from(users).where(eq(users.email, 'admin@rideway.demo')))[0];
    if (!admin) throw new Error('no demo admin');
    const sent = await t.request({ method: 'POST', url: '/api/notifications', as: admin, payload: { usertype: 'All', devicetype: 'All', title: 'Weekend offer', body: '20% off this weekend' } });
    expect(sent.statusCode).toBe(201);
    const notification = sent.json().notification as { id: string; recipients: number; devices: Record<string, number> };
    expect(notification.recipients).toBe(people.length - 1);
    expect(notification.devices).toEqual({ webpush: expected.webpush.length, fcm: expected.fcm.length, expo: expected.expo.length });

    webReceived.length = 0;
    const fcmBefore = fcm.accepted.length;
    const expoBefore = expo.accepted.length;
    expect(await relayPush(t.db, channels, t.clock.now)).toMatchObject({ failed: 0 });
    expect([...webReceived].sort()).toEqual([...expected.webpush].sort());
    expect(fcm.accepted.slice(fcmBefore).map((entry) => entry.token).sort()).toEqual([...expected.fcm].sort());
    expect(expo.accepted.slice(expoBefore).map((entry) => entry.token).sort()).toEqual([...expected.expo].sort());
    for (const device of quietDevices) expect([...webReceived, ...fcm.attempts, ...expo.attempts].some((entry) => device.endsWith(entry))).toBe(false);

    // The page's list says how many devices of each kind have had it.
    const listed = (await t.request({ method: 'GET', url: '/api/notifications', as: admin })).json().notifications as { id: string; delivered: Record<string, number> }[];
    expect(listed.find((entry) => entry.id === notification.id)?.delivered).toEqual(notification.devices);

    // Only phones of the platform for IOS: the iOS FCM tokens (kind apns), no browser, no Android Expo app.
    const ios = await t.request({ method: 'POST', url: '/api/notifications', as: admin, payload: { usertype: 'All', devicetype: 'IOS', title: 'iOS only', body: 'Hello iPhone' } });
    expect(ios.json().notification.devices).toEqual({ webpush: 0, fcm: expected.fcm.filter((token) => token.includes('demo-apns-')).length, expo: 0 });
  });

  it('answers no_user_match when every matching user turned promotions off', async () => {
    const admin = (await t.db.select().from(users).where(eq(users.email, 'admin@rideway.demo')))[0];
    if (!admin) throw new Error('no demo admin');
    await t.db.update(users).set({ promoNotifications: false }).where(eq(users.usertype, 'driver'));
    expect(codeOf(await t.request({ method: 'POST', url: '/api/notifications', as: admin, payload: { usertype: 'driver', devicetype: 'All', title: 'Drivers', body: 'Bonus' } }))).toBe('no_user_match');
  });
});

describe('the offline default (no FIREBASE_SERVICE_ACCOUNT, no EXPO_PUSH)', () => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp('pglite'); });
  afterAll(() => t.close());

  it('tries no phone provider: the tokens are skipped with a note for admins, and the message is done', async () => {
    const channels = await pushChannels(t.app.ctx);
    expect(channels.fcm).toBeUndefined();
    expect(channels.expo).toBeUndefined();
    const rider = await t.makeUser('rider');
    for (const payload of [{ kind: 'fcm', token: fcmToken('offline') }, { kind: 'expo', token: expoToken('offline') }]) {
      expect((await t.request({ method: 'POST', url: '/api/push/subscriptions', as: rider, payload })).statusCode).toBe(201);
    }
    await enqueue(t.db, { channel: 'push', recipient: rider.id, payload: { title: 'Rideway', msg: 'Offline' } }, t.clock.now);
    expect(await relayPush(t.db, channels, t.clock.now)).toEqual({ sent: 0, failed: 0 });
    const row = (await t.db.select().from(outbox).where(and(eq(outbox.recipient, rider.id), eq(outbox.channel, 'push'))))[0];
    expect(row).toMatchObject({ deliveredAt: t.clock.now, lastError: '1 FCM token(s) skipped: FIREBASE_SERVICE_ACCOUNT is not set; 1 Expo token(s) skipped: Expo push is off (EXPO_PUSH)' });
    expect(fcm.attempts).not.toContain(fcmToken('offline'));
    expect(expo.attempts).not.toContain(expoToken('offline'));
  });
});

describe('FIREBASE_SERVICE_ACCOUNT', () => {
  it('is the JSON or the path of its file; a bad one is refused without echoing it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rideway-fcm-'));
    try {
      const path = join(dir, 'service-account.json');
      writeFileSync(path, JSON.stringify(serviceAccount));
      expect(parseServiceAccount(path)).toMatchObject({ project_id: PROJECT, client_email: CLIENT_EMAIL });
      expect(parseServiceAccount(JSON.stringify(serviceAccount)).project_id).toBe(PROJECT);
      expect(() => parseServiceAccount('{"private_key": "secret-value"')).toThrow(/not valid JSON/);
      expect(() => parseServiceAccount('{"private_key": "secret-value"}')).toThrow(/lacks/);
      expect(() => parseServiceAccount(join(dir, 'missing.json'))).toThrow(/neither JSON nor a readable file/);
      try {
        parseServiceAccount('{"private_key": "secret-value"}');
      } catch (error) {
        expect(String(error)).not.toContain('secret-value');
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
