import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { twoProcesses } from '../two-processes';

const serverUrl = process.env.DATABASE_URL;
const redisUrl = process.env.REDIS_URL;

type Message = { type: string; topic?: string; event?: string };

/**
 * Issue 15 across real processes (as scale-out.test.ts starts them): a logout handled by process
 * A closes the socket the same session holds on process B, and a wallet event that follows
 * reaches only the socket of the session still signed in.
 */
describe.skipIf(!serverUrl || !redisUrl)('a logout on one server process closes the socket held by another (issue 15)', () => {
  const processes = twoProcesses(serverUrl ?? '', redisUrl ?? '', 'sessend');
  const { base, call, login } = processes;
  const sockets: WebSocket[] = [];

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
    await processes.start();
  }, 180_000);

  afterAll(async () => {
    for (const socket of sockets) socket.terminate();
    await processes.stop();
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
