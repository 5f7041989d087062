/**
 * Issue 15, point 4, on the WebSocket: "One WebSocket stalls the server. 20,000 refused
 * subscribe messages on one socket (each refusal costs a database read; the 200-topic cap counts
 * only granted topics) stalled the embedded-database server for about 31 s." Each socket now has
 * a message limit and a budget of refusals (realtime/socket-limits.ts), and a user a number of
 * sockets. Nothing here is timed: the proof is the database reads counted and the answers given.
 */
import { randomUUID } from 'node:crypto';
import { liveServerMessageSchema } from '@rideway/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import type { UserRow } from '../../src/modules/users/accounts';
import { createTestApp, ENGINES, NEAR_PICKUP, type TestApp } from '../harness';

type Message = { type: string; topic?: unknown; code?: string };
type Closed = { code: number; reason: string };

/** A raw socket: every message (each checked against the contract) and how it closed. */
type Socket = {
  messages: Message[];
  send: (message: Record<string, unknown>) => void;
  /** Resolves once `count` messages arrived (or fails after a generous wait). */
  received: (count: number) => Promise<void>;
  closed: Promise<Closed>;
  close: () => Promise<void>;
};

/** The upgrade, refused (its status and Retry-After) or taken. */
async function upgrade(url: string, token: string): Promise<{ socket: Socket } | { status: number; retryAfter: string | undefined }> {
  const socket = new WebSocket(url, { headers: { authorization: `Bearer ${token}` } });
  const messages: Message[] = [];
  const waiters = new Set<() => void>();
  socket.on('message', (data: Buffer) => {
    const message: unknown = JSON.parse(data.toString('utf8'));
    messages.push(liveServerMessageSchema.parse(message));
    for (const wake of waiters) wake();
  });
  const closed = new Promise<Closed>((resolve) => {
    socket.once('close', (code: number, reason: Buffer) => { resolve({ code, reason: reason.toString('utf8') }); });
  });
  const outcome = await new Promise<'open' | { status: number; retryAfter: string | undefined }>((resolve, reject) => {
    socket.once('open', () => { resolve('open'); });
    socket.once('unexpected-response', (_request, response) => {
      const header = response.headers['retry-after'];
      resolve({ status: response.statusCode ?? 0, retryAfter: Array.isArray(header) ? header[0] : header });
      response.resume();
      socket.terminate();
    });
    socket.once('error', reject);
  });
  if (outcome !== 'open') return outcome;
  return {
    socket: {
      messages,
      send: (message) => { socket.send(JSON.stringify(message)); },
      received: (count) =>
        new Promise<void>((resolve, reject) => {
          const look = () => {
            if (messages.length < count) return;
            waiters.delete(look);
            clearTimeout(timer);
            resolve();
          };
          const timer = setTimeout(() => {
            waiters.delete(look);
            reject(new Error(`${String(messages.length)} of ${String(count)} messages arrived`));
          }, 60_000);
          waiters.add(look);
          look();
        }),
      closed,
      close: async () => {
        socket.close();
        await closed;
      },
    },
  };
}

async function open(url: string, token: string): Promise<Socket> {
  const outcome = await upgrade(url, token);
  if ('status' in outcome) throw new Error(`upgrade refused: ${String(outcome.status)}`);
  return outcome.socket;
}

const FLOOD = 20_000;
const codes = (socket: Socket) => socket.messages.map((message) => message.code ?? message.type);
const tally = (values: string[]) => values.reduce<Record<string, number>>((counts, value) => ({ ...counts, [value]: (counts[value] ?? 0) + 1 }), {});

/**
 * The database reads that authorize a booking topic (subscribe.ts reads the booking's parties):
 * the cost of each refusal in the attack.
 */
function countOwnershipReads(t: TestApp) {
  const select = vi.spyOn(t.db, 'select');
  return {
    // A select with no fields (select()) has none to look at: calls are read as the untyped arguments they are.
    reads: () => (select.mock.calls as unknown[][]).filter(([fields]) => typeof fields === 'object' && fields !== null && 'requestedDrivers' in fields).length,
    restore: () => { select.mockRestore(); },
  };
}

/** A test app listening on a port, with the WebSocket's URL. */
async function listening(engine: Parameters<typeof createTestApp>[0], env: Record<string, string>) {
  const t = await createTestApp(engine, env);
  const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  return { t, base, url: `${base.replace('http', 'ws')}/api/ws` };
}

describe.each(ENGINES)('one WebSocket cannot stall the server on %s (issue 15)', (engine) => {
  let t: TestApp;
  let base = '';
  let url = '';
  beforeAll(async () => {
    ({ t, base, url } = await listening(engine, {}));
  });
  afterAll(() => t.close());

  it('20,000 refused subscribes sent at once: at most 20 database reads, then refusals, then the socket is closed with 4429; the server answers a signed-in request meanwhile', async () => {
    const rider = await t.makeUser('rider');
    const token = await t.tokenOf(rider);
    const socket = await open(url, token);
    const counted = countOwnershipReads(t);
    try {
      // Someone else's booking (here, none at all): each refusal needs the booking read.
      const topic = `booking:${randomUUID()}`;
      for (let i = 0; i < FLOOD; i += 1) socket.send({ type: 'subscribe', topic });
      const me = await fetch(`${base}/api/me`, { headers: { authorization: `Bearer ${token}` } });
      expect(me.status).toBe(200);
      expect(await socket.closed).toEqual({ code: 4429, reason: 'too_many_requests' });
      // The default limits: 20 messages a second handled, as many more refused, then closed.
      expect(counted.reads()).toBeLessThanOrEqual(20);
      expect(socket.messages.length).toBeLessThanOrEqual(40);
      const answers = tally(codes(socket));
      expect(Object.keys(answers).filter((code) => code !== 'forbidden' && code !== 'too_many_requests')).toEqual([]);
      expect(answers.too_many_requests).toBe(20);
    } finally {
      counted.restore();
    }
  });
});

describe.each(ENGINES)('refused subscriptions on one socket on %s (issue 15)', (engine) => {
  let t: TestApp;
  let base = '';
  let url = '';
  beforeAll(async () => {
    // Messages unlimited here, to see the budget of refusals alone.
    ({ t, base, url } = await listening(engine, { RATE_LIMIT_OVERRIDES: 'socket-messages.socket=1000000/1h, socket-open.user=3/1h' }));
  });
  afterAll(() => t.close());

  it('are answered without a database read once 20 were refused: 20,000 of them cost 20 reads, and every one is answered', async () => {
    const rider = await t.makeUser('rider');
    const token = await t.tokenOf(rider);
    const socket = await open(url, token);
    const counted = countOwnershipReads(t);
    try {
      const topic = `booking:${randomUUID()}`;
      for (let i = 0; i < FLOOD; i += 1) socket.send({ type: 'subscribe', topic });
      const me = await fetch(`${base}/api/me`, { headers: { authorization: `Bearer ${token}` } });
      expect(me.status).toBe(200);
      await socket.received(FLOOD);
      expect(tally(codes(socket))).toEqual({ forbidden: 20, too_many_requests: FLOOD - 20 });
      expect(counted.reads()).toBe(20);
      // Past the budget even a topic it may follow is refused: nothing is read to tell them apart.
      socket.send({ type: 'subscribe', topic: 'user:me' });
      await socket.received(FLOOD + 1);
      expect(socket.messages.at(-1)).toEqual({ type: 'error', code: 'too_many_requests', topic: 'user:me' });
      // Another socket of the same user has a budget of its own.
      const fresh = await open(url, token);
      fresh.send({ type: 'subscribe', topic: 'user:me' });
      await fresh.received(1);
      expect(fresh.messages[0]).toMatchObject({ type: 'subscribed', topic: 'user:me' });
      await fresh.close();
    } finally {
      counted.restore();
      await socket.close();
    }
  });

  it('opening sockets is counted per user: the fourth upgrade in the hour is refused with 429 and Retry-After', async () => {
    const user = await t.makeUser('rider');
    const token = await t.tokenOf(user);
    for (let i = 0; i < 3; i += 1) await (await open(url, token)).close();
    const refused = await upgrade(url, token);
    expect(refused).toEqual({ status: 429, retryAfter: expect.stringMatching(/^\d+$/) });
    expect(Number('retryAfter' in refused ? refused.retryAfter : 0)).toBeGreaterThan(0);
    await (await open(url, await t.tokenOf(await t.makeUser('rider')))).close();
  });
});

describe.each(ENGINES)('messages, sockets and positions of one user on %s (issue 15)', (engine) => {
  let t: TestApp;
  let url = '';
  beforeAll(async () => {
    ({ t, url } = await listening(engine, { RATE_LIMIT_OVERRIDES: 'socket-messages.socket=6/1h, open-sockets.user=2, location.user=2/1h' }));
  });
  afterAll(() => t.close());

  it('a socket past its messages is answered too_many_requests without their being handled, and closed with 4429 if it goes on', async () => {
    const socket = await open(url, await t.tokenOf(await t.makeUser('rider')));
    for (let i = 0; i < 6; i += 1) socket.send({ type: 'ping' });
    await socket.received(6);
    for (let i = 0; i < 6; i += 1) socket.send({ type: 'ping' });
    await socket.received(12);
    expect(codes(socket)).toEqual([...Array<string>(6).fill('pong'), ...Array<string>(6).fill('too_many_requests')]);
    socket.send({ type: 'ping' });
    expect(await socket.closed).toEqual({ code: 4429, reason: 'too_many_requests' });
    expect(socket.messages).toHaveLength(12);
  });

  it('a user holds 2 sockets at once: the third upgrade is refused with 429 until one closes; other users are not affected', async () => {
    const user = await t.makeUser('rider');
    const token = await t.tokenOf(user);
    const [first, second] = [await open(url, token), await open(url, token)];
    expect(await upgrade(url, token)).toEqual({ status: 429, retryAfter: String(t.config.WS_HEARTBEAT_S) });
    const other = await open(url, await t.tokenOf(await t.makeUser('rider')));
    await first.close();
    // The server hears of the close in its own time: try again until the place is free.
    let third: Awaited<ReturnType<typeof upgrade>> = { status: 0, retryAfter: undefined };
    for (let attempt = 0; attempt < 100 && !('socket' in third); attempt += 1) {
      third = await upgrade(url, token);
      if (!('socket' in third)) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect('socket' in third).toBe(true);
    for (const socket of [second, other, 'socket' in third ? third.socket : undefined]) await socket?.close();
  });

  it("a driver's positions on the socket count with those sent by HTTP: the third is refused and not kept", async () => {
    const driver = await t.makeUser('driver', { carType: 'Sedan' });
    expect((await t.request({ method: 'POST', url: '/api/driver/location', as: driver, payload: NEAR_PICKUP })).statusCode).toBe(200);
    const socket = await open(url, await t.tokenOf(driver));
    socket.send({ type: 'location', lat: 51.54, lng: -0.12 });
    socket.send({ type: 'ping' });
    await socket.received(1);
    socket.send({ type: 'location', lat: 51.55, lng: -0.12 });
    await socket.received(2);
    expect(socket.messages).toEqual([{ type: 'pong' }, { type: 'error', code: 'too_many_requests' }]);
    expect(t.app.ctx.live.pendingPositions.get(driver.id)).toMatchObject({ lat: 51.54 });
    const http = await t.request({ method: 'POST', url: '/api/driver/location', as: driver, payload: NEAR_PICKUP });
    expect(http.statusCode).toBe(429);
    await socket.close();
  });
});

describe.each(ENGINES)('RATE_LIMITS=off on the WebSocket on %s (issue 15)', (engine) => {
  let t: TestApp;
  let url = '';
  beforeAll(async () => {
    ({ t, url } = await listening(engine, { RATE_LIMITS: 'off', RATE_LIMIT_OVERRIDES: 'socket-messages.socket=2/1h, socket-refusals.socket=1/1h, open-sockets.user=1' }));
  });
  afterAll(() => t.close());

  it('lets every message, refusal and socket through', async () => {
    const user: UserRow = await t.makeUser('rider');
    const token = await t.tokenOf(user);
    const [socket, another] = [await open(url, token), await open(url, token)];
    for (let i = 0; i < 10; i += 1) socket.send({ type: 'ping' });
    for (let i = 0; i < 5; i += 1) socket.send({ type: 'subscribe', topic: `booking:${randomUUID()}` });
    await socket.received(15);
    expect(tally(codes(socket))).toEqual({ pong: 10, forbidden: 5 });
    await socket.close();
    await another.close();
  });
});
