import { promises as dnsPromises, type LookupAddress } from 'node:dns';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { outbox, pushSubscriptions } from '../../src/db/schema';
import { relayPush } from '../../src/jobs/push-relay';
import { enqueue } from '../../src/modules/outbox/service';
import { pushSender } from '../../src/modules/push/service';
import { codeOf, createTestApp, ENGINES, type TestApp } from '../harness';

const browserKeys = {
  p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
  auth: 'tBHItJI5svbpez7KI4CCXg',
};

/** Names this test answers without a network; any other name (localhost) goes to the system resolver. */
const fakeDns = new Map<string, string>([
  ['push.public.example', '142.250.180.10'],
  ['push.intranet.example', '10.0.0.1'],
  ['push.metadata.example', '169.254.169.254'],
  ['push.later.example', '142.250.180.10'],
]);
const realLookup = dnsPromises.lookup.bind(dnsPromises);

/**
 * Issue 15, the blind SSRF: any signed-in user could save a Web Push endpoint such as
 * http://127.0.0.1:PORT/... and the server POSTed to it. A stand-in service on 127.0.0.1 counts
 * every connection it gets: none may arrive.
 */
describe.each(ENGINES)('push endpoints reach only public https addresses on %s (issue 15 item 7)', (engine) => {
  let t: TestApp;
  let standIn: Server;
  let port = '';
  let connections = 0;

  beforeAll(async () => {
    vi.spyOn(dnsPromises, 'lookup').mockImplementation(((host: string, options: object) => {
      const address = fakeDns.get(host);
      if (address === undefined) return realLookup(host, options);
      return Promise.resolve([{ address, family: 4 } satisfies LookupAddress]);
    }) as typeof dnsPromises.lookup);
    t = await createTestApp(engine);
    standIn = createServer((request, response) => {
      request.resume();
      response.statusCode = 201;
      response.end();
    });
    standIn.on('connection', () => { connections += 1; });
    await new Promise<void>((resolve) => standIn.listen(0, '127.0.0.1', resolve));
    port = String((standIn.address() as AddressInfo).port);
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    standIn.closeAllConnections();
    standIn.close();
    await t.close();
  });

  const subscribe = (as: Awaited<ReturnType<TestApp['makeUser']>>, endpoint: string) =>
    t.request({ method: 'POST', url: '/api/push/subscriptions', as, payload: { kind: 'webpush', subscription: { endpoint, keys: browserKeys } } });
  const pushRowOf = async (uid: string) => (await t.db.select().from(outbox).where(eq(outbox.recipient, uid))).find((row) => row.channel === 'push');

  it('refuses loopback and private endpoints, stores nothing, and posts nothing there', async () => {
    const rider = await t.makeUser('rider');
    const endpoints = [
      `http://127.0.0.1:${port}/ssrf`,
      `http://localhost:${port}/ssrf`,
      `https://127.0.0.1:${port}/ssrf`,
      `https://localhost:${port}/ssrf`,
      `https://[::1]:${port}/ssrf`,
      `https://[::ffff:127.0.0.1]:${port}/ssrf`,
      `https://2130706433:${port}/ssrf`,
      `https://push.intranet.example:${port}/ssrf`,
      'https://push.metadata.example/latest/meta-data',
    ];
    for (const endpoint of endpoints) {
      const response = await subscribe(rider, endpoint);
      expect({ endpoint, status: response.statusCode, code: codeOf(response), field: response.json<{ error: { field?: string } }>().error.field }).toEqual({
        endpoint,
        status: 400,
        code: 'validation_error',
        field: 'subscription.endpoint',
      });
    }
    expect(await t.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.uid, rider.id))).toEqual([]);
    await enqueue(t.db, { channel: 'push', recipient: rider.id, payload: { title: 'Rideway', msg: 'Hello' } }, t.clock.now);
    connections = 0;
    expect(await relayPush(t.db, await pushSender(t.app.ctx), t.clock.now)).toEqual({ sent: 0, failed: 0 });
    expect(connections).toBe(0);
    expect(await pushRowOf(rider.id)).toMatchObject({ deliveredAt: t.clock.now, lastError: 'no device to push to' });
  });

  it('accepts an https endpoint at a public address', async () => {
    const rider = await t.makeUser('rider');
    const endpoint = 'https://push.public.example/fcm/send/abc123';
    expect((await subscribe(rider, endpoint)).statusCode).toBe(201);
    expect((await t.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.uid, rider.id))).map((row) => row.endpoint)).toEqual([endpoint]);
    // Nothing is sent to it here (no network in tests).
    await t.db.delete(pushSubscriptions).where(eq(pushSubscriptions.uid, rider.id));
  });

  it('does not post to a saved subscription whose host now resolves to a private address, and drops it', async () => {
    const rider = await t.makeUser('rider');
    const endpoint = `https://push.later.example:${port}/rebound`;
    expect((await subscribe(rider, endpoint)).statusCode).toBe(201);
    fakeDns.set('push.later.example', '127.0.0.1');
    await enqueue(t.db, { channel: 'push', recipient: rider.id, payload: { title: 'Rideway', msg: 'Hello' } }, t.clock.now);
    const warn = vi.fn();
    connections = 0;
    expect(await relayPush(t.db, await pushSender(t.app.ctx, { warn }), t.clock.now)).toEqual({ sent: 0, failed: 0 });
    expect(connections).toBe(0);
    expect(warn).toHaveBeenCalledWith({ host: 'push.later.example' }, expect.stringContaining('resolves to 127.0.0.1'));
    expect(await t.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.uid, rider.id))).toEqual([]);
    expect((await pushRowOf(rider.id))?.lastError).toMatch(/^push endpoint refused: push\.later\.example resolves to 127\.0\.0\.1/);
    fakeDns.set('push.later.example', '142.250.180.10');
  });

  it('drops a loopback subscription saved before the check existed, without posting to it', async () => {
    const rider = await t.makeUser('rider');
    await t.db.insert(pushSubscriptions).values({ uid: rider.id, kind: 'webpush', endpoint: `http://127.0.0.1:${port}/old`, keys: browserKeys, createdAt: t.clock.now });
    await enqueue(t.db, { channel: 'push', recipient: rider.id, payload: { title: 'Rideway', msg: 'Hello' } }, t.clock.now);
    connections = 0;
    expect(await relayPush(t.db, await pushSender(t.app.ctx), t.clock.now)).toEqual({ sent: 0, failed: 0 });
    expect(connections).toBe(0);
    expect(await t.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.uid, rider.id))).toEqual([]);
  });
});
