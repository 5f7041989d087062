import { buildApp } from '@rideway/server/app';
import { loadConfig } from '@rideway/server/config';
import { openDatabase } from '@rideway/server/db/client';
import { createSession } from '@rideway/server/modules/auth/sessions';
import { insertAccount } from '@rideway/server/modules/users/accounts';
import { memoryStorage } from '@rideway/server/providers/storage';
import { eventFrame } from '@rideway/server/realtime/events';
import type { AddressInfo } from 'node:net';
import { fork } from 'node:child_process';
import { join } from 'node:path';
import { WebSocketServer } from 'ws';

/**
 * Fan-out: one event on a topic to 10,000 WebSocket subscribers through the gateway (bus, topic
 * lookup, audience check, one frame for all) against a bare ws server looping over its 10,000
 * sockets with one prepared buffer. Both time from the send until every client has the message.
 * Target: at least 0.7x of the bare loop.
 */
const SUBSCRIBERS = 10_000;
const ROUNDS = 15;

type Clients = { next: () => Promise<void>; stop: () => void };

/** Starts the clients in a child process; `next()` resolves when the next event reached them all. */
async function startClients(url: string, token = '', topic = ''): Promise<Clients> {
  const child = fork(join(import.meta.dirname, 'fanout-clients.ts'), [url, String(SUBSCRIBERS), token, topic], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
  const waiters: (() => void)[] = [];
  child.on('message', (message) => {
    if (message === 'done' || message === 'ready') waiters.shift()?.();
  });
  const next = () => new Promise<void>((resolve) => waiters.push(resolve));
  await next();
  return { next, stop: () => child.kill() };
}

/** Milliseconds from `send()` until every client got the message. */
async function deliveryMs(clients: Clients, send: () => void): Promise<number> {
  const allIn = clients.next();
  const started = performance.now();
  send();
  await allIn;
  return performance.now() - started;
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

// The gateway: admins following the live driver map.
const database = await openDatabase({ dataDir: 'memory://' });
// Rate limits off: the load comes from one address and a few users, and the benchmark measures the work, not refusals.
const app = await buildApp({ config: loadConfig({ LOG_LEVEL: 'silent', RATE_LIMITS: 'off' }), db: database.db, storage: memoryStorage(), logger: false, background: false });
await app.listen({ port: 0, host: '127.0.0.1' });
const admin = await insertAccount(database.db, { firstName: 'Bench', lastName: 'Admin', email: 'admin@bench.local', mobile: '7000000000', usertype: 'admin', passwordHash: null, loginType: 'email', approved: true, emailVerified: true, createdByAdmin: true, referralSource: 'admin' }, Date.now());
const token = await createSession(database.db, admin.id, Date.now());
const gatewayClients = await startClients(`ws://127.0.0.1:${String((app.server.address() as AddressInfo).port)}/api/ws`, token, 'drivers:live');
const data = { uid: 'driver-1', name: 'Sam Driver', vehicleNumber: 'AB12 CDE', carType: 'Economy', location: { lat: 51.5, lng: -0.12 }, at: Date.now(), busy: false };
const gatewayRuns: number[] = [];
for (let round = 0; round < ROUNDS; round += 1) {
  gatewayRuns.push(await deliveryMs(gatewayClients, () => void app.ctx.live.bus.publish({ topics: ['drivers:live'], frame: eventFrame('drivers:live', 'position', { ...data, at: Date.now() }) })));
}
gatewayClients.stop();
await app.close();
await database.close();

// The bare loop.
const bare = new WebSocketServer({ port: 0, host: '127.0.0.1', perMessageDeflate: false });
await new Promise<void>((resolve) => bare.once('listening', () => { resolve(); }));
const bareClients = await startClients(`ws://127.0.0.1:${String((bare.address() as AddressInfo).port)}`);
const prepared = Buffer.from(eventFrame('drivers:live', 'position', data));
const bareRuns: number[] = [];
for (let round = 0; round < ROUNDS; round += 1) {
  bareRuns.push(
    await deliveryMs(bareClients, () => {
      for (const socket of bare.clients) socket.send(prepared);
    }),
  );
}
bareClients.stop();
bare.close();
const gateway = median(gatewayRuns);
const baseline = median(bareRuns);
const ratio = baseline / gateway;
export const passed = ratio >= 0.7;
console.log(`fan-out to ${String(SUBSCRIBERS)} WebSocket subscribers: ${ratio.toFixed(2)}x of the bare ws loop (${gateway.toFixed(1)} ms vs ${baseline.toFixed(1)} ms per event) ${passed ? 'meets >= 0.7x' : 'BELOW target 0.7x'}`);
