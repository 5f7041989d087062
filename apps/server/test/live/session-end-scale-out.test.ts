import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { createDemoDatabase } from '../postgres';

const serverUrl = process.env.DATABASE_URL;
const redisUrl = process.env.REDIS_URL;

type Message = { type: string; topic?: string; event?: string };

/**
 * Issue 15 across real processes (as scale-out.test.ts starts them): a logout handled by process
 * A closes the socket the same session holds on process B, and a wallet event that follows
 * reaches only the socket of the session still signed in.
 */
describe.skipIf(!serverUrl || !redisUrl)('a logout on one server process closes the socket held by another (issue 15)', () => {
  const prefix = `rideway-test-${randomUUID().slice(0, 8)}`;
  const ports = [5100 + Math.floor(Math.random() * 400), 5600 + Math.floor(Math.random() * 400)] as const;
  const servers: ChildProcess[] = [];
  const sockets: WebSocket[] = [];
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
  /** A socket on a process, following the user's own topic; what it receives, and how it closed. */
  const follow = async (index: 0 | 1, token: string) => {
    const socket = new WebSocket(`${base(index).replace('http', 'ws')}/api/ws`, { headers: { authorization: `Bearer ${token}` } });
    sockets.push(socket);
    const messages: Message[] = [];
    socket.on('message', (data: Buffer) => messages.push(JSON.parse(data.toString('utf8')) as Message));
    const closed = new Promise<{ code: number; reason: string }>((resolve) => {
      socket.once('close', (code: number, reason: Buffer) => { resolve({ code, reason: reason.toString('utf8') }); });
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => { resolve(); });
      socket.once('error', reject);
    });
    socket.send(JSON.stringify({ type: 'subscribe', topic: 'user:me' }));
    for (let i = 0; i < 100 && !messages.some((m) => m.type === 'subscribed'); i += 1) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(messages.some((m) => m.type === 'subscribed')).toBe(true);
    return { messages, closed };
  };

  beforeAll(async () => {
    const created = await createDemoDatabase(serverUrl ?? '', 'sessend');
    dropDatabase = created.drop;
    for (const port of ports) {
      servers.push(
        spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, '..', '..', 'src', 'main.ts')], {
          cwd: join(import.meta.dirname, '..', '..'),
          env: { ...process.env, DATABASE_URL: created.url, REDIS_URL: redisUrl, REDIS_PREFIX: prefix, PORT: String(port), DEMO_DATA: '0', LOG_LEVEL: 'silent', DRIVER_TIMEOUT_S: '0' },
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
    for (const socket of sockets) socket.terminate();
    for (const server of servers) server.kill('SIGTERM');
    await Promise.all(servers.map((server) => new Promise((resolve) => server.once('exit', resolve))));
    await dropDatabase();
  }, 60_000);

  it('logs out on process A: the socket on process B closes with 4401 and hears no wallet event; the other session hears it', async () => {
    const [leaving, staying, adminToken] = await Promise.all([login(0, 'rider1@rideway.demo'), login(1, 'rider1@rideway.demo'), login(0, 'admin@rideway.demo')]);
    const rider = (await call(0, 'GET', '/api/me', staying)).body.user as { id: string };
    const gone = await follow(1, leaving);
    const kept = await follow(1, staying);
    expect((await call(0, 'POST', '/api/auth/logout', leaving)).status).toBe(204);
    const closed = await Promise.race([gone.closed, new Promise<'open'>((resolve) => setTimeout(() => { resolve('open'); }, 5000))]);
    expect(closed).toEqual({ code: 4401, reason: 'not_logged_in' });
    expect((await call(0, 'POST', '/api/wallet/credit', adminToken, { uid: rider.id, amount: 5 })).status).toBe(200);
    for (let i = 0; i < 100 && !kept.messages.some((m) => m.event === 'wallet'); i += 1) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(kept.messages.filter((m) => m.event === 'wallet')).toHaveLength(1);
    expect(gone.messages.filter((m) => m.event === 'wallet')).toEqual([]);
  });
});
