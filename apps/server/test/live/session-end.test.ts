import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { buildApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import { outbox, sessions } from '../../src/db/schema';
import { createSession, hashToken } from '../../src/modules/accounts/sessions';
import type { UserRow } from '../../src/modules/users/accounts';
import { memoryStorage } from '../../src/providers/storage';
import { createTestApp, ENGINES, type TestApp } from '../harness';

type Message = { type: string; topic?: string; event?: string; data?: unknown };

/** A raw WebSocket for these tests: what it received, and how it was closed. */
type Socket = {
  messages: Message[];
  /** Resolves with the close code and reason once the socket is closed. */
  closed: Promise<{ code: number; reason: string }>;
  isClosed: () => boolean;
  subscribe: (topic: string) => Promise<Message>;
  close: () => void;
};

async function connect(url: string, token: string): Promise<Socket> {
  const socket = new WebSocket(url, { headers: { authorization: `Bearer ${token}` } });
  const messages: Message[] = [];
  const waiters = new Set<() => void>();
  let closedFlag = false;
  socket.on('message', (data: Buffer) => {
    messages.push(JSON.parse(data.toString('utf8')) as Message);
    for (const wake of waiters) wake();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    socket.once('close', (code: number, reason: Buffer) => {
      closedFlag = true;
      resolve({ code, reason: reason.toString('utf8') });
    });
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => { resolve(); });
    socket.once('error', reject);
  });
  const next = (match: (message: Message) => boolean) =>
    new Promise<Message>((resolve, reject) => {
      const look = () => {
        const found = messages.find(match);
        if (!found) return false;
        waiters.delete(look);
        clearTimeout(timer);
        resolve(found);
        return true;
      };
      const timer = setTimeout(() => {
        waiters.delete(look);
        reject(new Error(`no matching message; got ${JSON.stringify(messages)}`));
      }, 5000);
      if (!look()) waiters.add(look);
    });
  return {
    messages,
    closed,
    isClosed: () => closedFlag,
    async subscribe(topic) {
      socket.send(JSON.stringify({ type: 'subscribe', topic }));
      return next((m) => (m.type === 'subscribed' || m.type === 'error') && m.topic === topic);
    },
    close: () => { socket.terminate(); },
  };
}

/** The close the server sends when a socket's session ended, or 'open' if none came in time. */
const closeOf = (socket: Socket, withinMs = 3000) =>
  Promise.race([socket.closed, new Promise<'open'>((resolve) => setTimeout(() => { resolve('open'); }, withinMs))]);

const ENDED = { code: 4401, reason: 'not_logged_in' };
const walletEvents = (socket: Socket) => socket.messages.filter((m) => m.type === 'event' && m.event === 'wallet');
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(ENGINES)('sockets end with their session on %s (issue 15)', (engine) => {
  let t: TestApp;
  let admin: UserRow;
  let url = '';
  const opened: Socket[] = [];

  beforeAll(async () => {
    t = await createTestApp(engine);
    admin = await t.makeUser('admin');
    await t.live(admin);
    const address = t.app.server.address();
    url = `ws://127.0.0.1:${String(typeof address === 'object' && address ? address.port : 0)}/api/ws`;
  });
  afterAll(async () => {
    for (const socket of opened) socket.close();
    await t.close();
  });

  /** A new session of the user and a socket opened with it, following the user's own topic. */
  const session = async (user: UserRow) => {
    const token = await createSession(t.db, user.id, t.clock.now);
    const socket = await connect(url, token);
    opened.push(socket);
    expect(await socket.subscribe('user:me')).toMatchObject({ type: 'subscribed' });
    return { token, socket };
  };
  const as = (token: string) => ({ authorization: `Bearer ${token}` });
  /** An admin credits the wallet; the event is relayed before this returns. */
  const credit = async (user: UserRow) => {
    const response = await t.request({ method: 'POST', url: '/api/wallet/credit', as: admin, payload: { uid: user.id, amount: 5 } });
    expect(response.statusCode).toBe(200);
    await t.app.ctx.live.relay.drain();
  };

  it('logout closes the sockets of that session, and they receive no wallet event; the other session stays', async () => {
    const rider = await t.makeUser('rider');
    const phone = await session(rider);
    const laptop = await session(rider);
    expect((await t.request({ method: 'POST', url: '/api/auth/logout', headers: as(phone.token) })).statusCode).toBe(204);
    expect(await closeOf(phone.socket)).toEqual(ENDED);
    await credit(rider);
    await laptop.socket.subscribe('user:me');
    await pause(100);
    expect(walletEvents(laptop.socket)).toHaveLength(1);
    expect(walletEvents(phone.socket)).toEqual([]);
    expect(laptop.socket.isClosed()).toBe(false);
  });

  it('a password reset closes every socket of the account', async () => {
    const rider = await t.makeUser('rider');
    const one = await session(rider);
    const two = await session(rider);
    await t.request({ method: 'POST', url: '/api/auth/password-reset', payload: { email: rider.email } });
    const mails = await t.db.select().from(outbox).where(eq(outbox.recipient, rider.email ?? ''));
    const link = /token=([\w-]+)/.exec(String((mails.at(-1)?.payload as { text?: string } | undefined)?.text))?.[1];
    const done = await t.request({ method: 'POST', url: '/api/auth/password-reset/confirm', payload: { token: link, password: 'newpass1' } });
    expect(done.statusCode).toBe(200);
    expect(await closeOf(one.socket)).toEqual(ENDED);
    expect(await closeOf(two.socket)).toEqual(ENDED);
    await credit(rider);
    await pause(100);
    expect([...walletEvents(one.socket), ...walletEvents(two.socket)]).toEqual([]);
  });

  it('deleting a user closes its sockets', async () => {
    const rider = await t.makeUser('rider');
    const own = await session(rider);
    expect((await t.request({ method: 'DELETE', url: `/api/users/${rider.id}`, as: admin })).statusCode).toBe(204);
    expect(await closeOf(own.socket)).toEqual(ENDED);
  });

  it('withdrawing approval closes the sockets; approval kept does not', async () => {
    const driver = await t.makeUser('driver', { bankName: 'B', bankCode: '1', bankAccount: '2' });
    const own = await session(driver);
    const renamed = await t.request({ method: 'PATCH', url: `/api/users/${driver.id}`, as: admin, payload: { firstName: 'Renamed', approved: true } });
    expect(renamed.statusCode).toBe(200);
    expect(await closeOf(own.socket, 300)).toBe('open');
    expect((await t.request({ method: 'PATCH', url: `/api/users/${driver.id}`, as: admin, payload: { approved: false } })).statusCode).toBe(200);
    expect(await closeOf(own.socket)).toEqual(ENDED);
    await credit(driver);
    await pause(100);
    expect(walletEvents(own.socket)).toEqual([]);
    expect((await t.request({ method: 'GET', url: '/api/me', headers: as(own.token) })).statusCode).toBe(401);
  });

  it('an admin changing the email closes every socket of the user', async () => {
    const rider = await t.makeUser('rider');
    const own = await session(rider);
    const changed = await t.request({ method: 'PATCH', url: `/api/users/${rider.id}`, as: admin, payload: { email: `new.${randomUUID().slice(0, 6)}@example.com` } });
    expect(changed.statusCode).toBe(200);
    expect(await closeOf(own.socket)).toEqual(ENDED);
    await credit(rider);
    await pause(100);
    expect(walletEvents(own.socket)).toEqual([]);
  });

  it('a user changing its own mobile keeps the session it used; its other sessions and sockets end', async () => {
    const rider = await t.makeUser('rider', { loginType: 'phone' });
    const current = await session(rider);
    const other = await session(rider);
    const changed = await t.request({ method: 'PATCH', url: '/api/me', headers: as(current.token), payload: { mobile: `6${String(Date.now()).slice(-8)}` } });
    expect(changed.statusCode).toBe(200);
    expect(await closeOf(other.socket)).toEqual(ENDED);
    expect((await t.request({ method: 'GET', url: '/api/me', headers: as(other.token) })).statusCode).toBe(401);
    expect((await t.request({ method: 'GET', url: '/api/me', headers: as(current.token) })).statusCode).toBe(200);
    await credit(rider);
    await current.socket.subscribe('user:me');
    await pause(100);
    expect(walletEvents(current.socket)).toHaveLength(1);
    expect(walletEvents(other.socket)).toEqual([]);
    expect(current.socket.isClosed()).toBe(false);
  });
});

describe('a socket whose session ended without a notice closes at the next sweep (issue 15)', () => {
  let t: TestApp;
  let url = '';
  beforeAll(async () => {
    t = await createTestApp('pglite', { WS_HEARTBEAT_S: '1' });
    const someone = await t.makeUser('rider');
    await t.live(someone);
    const address = t.app.server.address();
    url = `ws://127.0.0.1:${String(typeof address === 'object' && address ? address.port : 0)}/api/ws`;
  });
  afterAll(() => t.close());

  it('a session deleted behind the gateway\'s back (a lost notice), or expired, closes its socket', async () => {
    const rider = await t.makeUser('rider');
    const deleted = await createSession(t.db, rider.id, t.clock.now);
    const expiring = await createSession(t.db, rider.id, t.clock.now);
    const kept = await createSession(t.db, rider.id, t.clock.now);
    const [a, b, c] = await Promise.all([connect(url, deleted), connect(url, expiring), connect(url, kept)]);
    await t.db.delete(sessions).where(eq(sessions.tokenHash, hashToken(deleted)));
    await t.db.update(sessions).set({ expiresAt: t.clock.now - 1 }).where(eq(sessions.tokenHash, hashToken(expiring)));
    expect(await closeOf(a, 3500)).toEqual(ENDED);
    expect(await closeOf(b, 3500)).toEqual(ENDED);
    expect(c.isClosed()).toBe(false);
    for (const socket of [a, b, c]) socket.close();
  });
});

const redisUrl = process.env.REDIS_URL;

/**
 * Two gateways on one database and one Redis, as two server processes are: a logout handled by
 * one closes the socket held by the other, and the wallet events that follow reach only the
 * sockets whose session is alive.
 */
describe.skipIf(!redisUrl).each(ENGINES)('a logout on one process closes the socket held by another, through Redis, on %s (issue 15)', (engine) => {
  let t: TestApp;
  let second: FastifyInstance;
  let url = '';
  const opened: Socket[] = [];

  beforeAll(async () => {
    const env = { REDIS_URL: redisUrl ?? '', REDIS_PREFIX: `rideway-test-${randomUUID().slice(0, 8)}` };
    t = await createTestApp(engine, env);
    second = await buildApp({ config: loadConfig({ LOG_LEVEL: 'silent', ...env }), db: t.db, storage: memoryStorage(), now: () => t.clock.now, logger: false, background: false });
    url = `${(await second.listen({ port: 0, host: '127.0.0.1' })).replace('http', 'ws')}/api/ws`;
  });
  afterAll(async () => {
    for (const socket of opened) socket.close();
    await second.close();
    await t.close();
  });

  it('logs out through process A: the socket on process B closes, and receives no wallet event', async () => {
    const admin = await t.makeUser('admin');
    const rider = await t.makeUser('rider');
    const leaving = await createSession(t.db, rider.id, t.clock.now);
    const staying = await createSession(t.db, rider.id, t.clock.now);
    const [gone, kept] = await Promise.all([connect(url, leaving), connect(url, staying)]);
    opened.push(gone, kept);
    for (const socket of [gone, kept]) expect(await socket.subscribe('user:me')).toMatchObject({ type: 'subscribed' });
    expect((await t.request({ method: 'POST', url: '/api/auth/logout', headers: { authorization: `Bearer ${leaving}` } })).statusCode).toBe(204);
    expect(await closeOf(gone)).toEqual(ENDED);
    // Process A credits the wallet and relays the event; process B delivers it to the live session only.
    expect((await t.request({ method: 'POST', url: '/api/wallet/credit', as: admin, payload: { uid: rider.id, amount: 5 } })).statusCode).toBe(200);
    await t.app.ctx.live.relay.drain();
    for (let i = 0; i < 50 && walletEvents(kept).length === 0; i += 1) await pause(50);
    expect(walletEvents(kept)).toHaveLength(1);
    expect(walletEvents(gone)).toEqual([]);
  });

  it('a password reset through process A closes every socket of the account on process B', async () => {
    const rider = await t.makeUser('rider');
    const sockets = await Promise.all([1, 2].map(async () => connect(url, await createSession(t.db, rider.id, t.clock.now))));
    opened.push(...sockets);
    await t.request({ method: 'POST', url: '/api/auth/password-reset', payload: { email: rider.email } });
    const mails = await t.db.select().from(outbox).where(eq(outbox.recipient, rider.email ?? ''));
    const link = /token=([\w-]+)/.exec(String((mails.at(-1)?.payload as { text?: string } | undefined)?.text))?.[1];
    expect((await t.request({ method: 'POST', url: '/api/auth/password-reset/confirm', payload: { token: link, password: 'newpass1' } })).statusCode).toBe(200);
    for (const socket of sockets) expect(await closeOf(socket)).toEqual(ENDED);
  });
});
