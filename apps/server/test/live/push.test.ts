import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox, pushSubscriptions, users } from '../../src/db/schema';
import { relayPush } from '../../src/jobs/push-relay';
import { pushSender, vapidKeys } from '../../src/modules/push/service';
import { enqueue } from '../../src/modules/outbox/service';
import { codeOf, createTestApp, ENGINES, type TestApp } from '../harness';

/** A browser's keys as PushManager makes them: a P-256 public key and a 16-byte secret. */
const browserKeys = {
  p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
  auth: 'tBHItJI5svbpez7KI4CCXg',
};

type Received = { path: string; headers: IncomingMessage['headers']; body: Buffer };

/** The stand-in push service listens on 127.0.0.1: these tests turn on the test-only switch that lets the server post there. */
describe.each(ENGINES)('push delivery from the outbox on %s (issue 5 item 7)', (engine) => {
  let t: TestApp;
  let pushService: ReturnType<typeof createServer>;
  let endpointBase = '';
  const received: Received[] = [];
  /** What the fake push service answers, by path. */
  const answers = new Map<string, number>();

  beforeAll(async () => {
    t = await createTestApp(engine, { PUSH_ALLOW_PRIVATE_ENDPOINTS_FOR_TESTS: '1' });
    pushService = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({ path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks) });
        response.statusCode = answers.get(request.url ?? '') ?? 201;
        if (response.statusCode === 307) response.setHeader('location', '/landing');
        response.end();
      });
    });
    await new Promise<void>((resolve) => pushService.listen(0, '127.0.0.1', resolve));
    endpointBase = `http://127.0.0.1:${String((pushService.address() as AddressInfo).port)}`;
  });
  afterAll(async () => {
    pushService.close();
    await t.close();
  });

  it('keeps subscriptions: a browser by Web Push, a phone by its token; refuses bad ones', async () => {
    const rider = await t.makeUser('rider');
    const publicKey = (await t.request({ method: 'GET', url: '/api/push/vapid-public-key' })).json().publicKey as string;
    expect(publicKey).toMatch(/^[A-Za-z0-9_-]{80,90}$/);
    // One key pair for every process: asked again, the same key.
    expect((await vapidKeys(t.app.ctx)).publicKey).toBe(publicKey);
    const ok = await t.request({ method: 'POST', url: '/api/push/subscriptions', as: rider, payload: { kind: 'webpush', subscription: { endpoint: `${endpointBase}/rider`, keys: browserKeys } } });
    expect(ok.statusCode).toBe(201);
    const phone = await t.request({ method: 'POST', url: '/api/push/subscriptions', as: rider, payload: { kind: 'fcm', token: 'fcm-token-0123456789abcdef' } });
    expect(phone.statusCode).toBe(201);
    expect((await t.db.select().from(users).where(eq(users.id, rider.id)))[0]).toMatchObject({ pushToken: 'fcm-token-0123456789abcdef', userPlatform: 'ANDROID' });
    for (const payload of [{}, { kind: 'webpush', subscription: { endpoint: 'http://example.com/x', keys: browserKeys } }, { kind: 'webpush', subscription: { endpoint: `${endpointBase}/x`, keys: { p256dh: '!', auth: '' } } }, { kind: 'fcm', token: 'short' }, { kind: 'sms' }]) {
      expect(codeOf(await t.request({ method: 'POST', url: '/api/push/subscriptions', as: rider, payload }))).toBe('validation_error');
    }
    expect(codeOf(await t.request({ method: 'POST', url: '/api/push/subscriptions', payload: { kind: 'fcm', token: 'x'.repeat(20) } }))).toBe('not_logged_in');
  });

  it('sends each pending message to the recipient\'s browsers, encrypted and VAPID-signed', async () => {
    const rider = await t.makeUser('rider');
    await t.request({ method: 'POST', url: '/api/push/subscriptions', as: rider, payload: { kind: 'webpush', subscription: { endpoint: `${endpointBase}/a`, keys: browserKeys } } });
    await enqueue(t.db, { channel: 'push', recipient: rider.id, payload: { title: 'Rideway', msg: 'Your driver is on the way.', screen: 'BookedCab', params: { bookingId: 'b1' } } }, t.clock.now);
    const vapid = await vapidKeys(t.app.ctx);
    const send = await pushSender(t.app.ctx, t.app.log);
    received.length = 0;
    expect(await relayPush(t.db, send, t.clock.now)).toMatchObject({ sent: 1, failed: 0 });
    expect(received).toHaveLength(1);
    const [message] = received;
    expect(message?.path).toBe('/a');
    expect(message?.headers['content-encoding']).toBe('aes128gcm');
    expect(message?.headers.ttl).toBe('3600');
    expect(message?.headers.authorization).toMatch(new RegExp(`^vapid t=[\\w-]+\\.[\\w-]+\\.[\\w-]+, k=${vapid.publicKey}$`));
    // The payload is encrypted: the text is not in the body.
    expect(message?.body.includes(Buffer.from('on the way'))).toBe(false);
    expect(message?.body.length).toBeGreaterThan(80);
    const rows = await t.db.select().from(outbox).where(eq(outbox.recipient, rider.id));
    expect(rows.filter((row) => row.channel === 'push').every((row) => row.deliveredAt === t.clock.now)).toBe(true);
    // Sent once: the next pass has nothing to do.
    expect(await relayPush(t.db, send, t.clock.now)).toEqual({ sent: 0, failed: 0 });
  });

  it('forgets a subscription the push service says is gone, and retries after a failure', async () => {
    const rider = await t.makeUser('rider');
    for (const path of ['/gone', '/flaky']) {
      await t.request({ method: 'POST', url: '/api/push/subscriptions', as: rider, payload: { kind: 'webpush', subscription: { endpoint: `${endpointBase}${path}`, keys: browserKeys } } });
    }
    answers.set('/gone', 410);
    answers.set('/flaky', 503);
    await enqueue(t.db, { channel: 'push', recipient: rider.id, payload: { title: 'Rideway', msg: 'Hello' } }, t.clock.now);
    const send = await pushSender(t.app.ctx);
    expect(await relayPush(t.db, send, t.clock.now)).toEqual({ sent: 0, failed: 1 });
    expect((await t.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.uid, rider.id))).map((s) => s.endpoint)).toEqual([`${endpointBase}/flaky`]);
    const pending = (await t.db.select().from(outbox).where(eq(outbox.recipient, rider.id))).find((row) => row.channel === 'push');
    expect(pending).toMatchObject({ deliveredAt: null, attempts: 1, lastError: 'push service answered 503' });
    // Not before its retry time; then it goes.
    expect(await relayPush(t.db, send, t.clock.now + 1000)).toEqual({ sent: 0, failed: 0 });
    answers.set('/flaky', 201);
    expect(await relayPush(t.db, send, t.clock.now + 31_000)).toEqual({ sent: 1, failed: 0 });
  });

  it('does not follow a push service\'s redirect: the message waits for a retry (issue 15 item 7)', async () => {
    const rider = await t.makeUser('rider');
    await t.request({ method: 'POST', url: '/api/push/subscriptions', as: rider, payload: { kind: 'webpush', subscription: { endpoint: `${endpointBase}/moved`, keys: browserKeys } } });
    answers.set('/moved', 307);
    await enqueue(t.db, { channel: 'push', recipient: rider.id, payload: { title: 'Rideway', msg: 'Hello' } }, t.clock.now);
    received.length = 0;
    expect(await relayPush(t.db, await pushSender(t.app.ctx), t.clock.now)).toEqual({ sent: 0, failed: 1 });
    expect(received.map((message) => message.path)).toEqual(['/moved']);
    const pending = (await t.db.select().from(outbox).where(eq(outbox.recipient, rider.id))).find((row) => row.channel === 'push');
    expect(pending).toMatchObject({ deliveredAt: null, lastError: 'push service answered 307' });
  });

  it('unsubscribes the caller\'s own device only', async () => {
    const rider = await t.makeUser('rider');
    const other = await t.makeUser('rider');
    await t.request({ method: 'POST', url: '/api/push/subscriptions', as: rider, payload: { kind: 'webpush', subscription: { endpoint: `${endpointBase}/mine`, keys: browserKeys } } });
    expect((await t.request({ method: 'DELETE', url: '/api/push/subscriptions', as: other, payload: { endpoint: `${endpointBase}/mine` } })).statusCode).toBe(204);
    expect(await t.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, `${endpointBase}/mine`))).toHaveLength(1);
    await t.request({ method: 'DELETE', url: '/api/push/subscriptions', as: rider, payload: { endpoint: `${endpointBase}/mine` } });
    expect(await t.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, `${endpointBase}/mine`))).toHaveLength(0);
  });
});
