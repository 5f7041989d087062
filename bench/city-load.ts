// The city simulation's load generator (issue 21 point 6), a child process of city.ts: the drivers'
// WebSockets (offers arrive on `user:me`, positions go out as `location` messages every 4 s, over
// several 127.0.0.x source addresses), and riders whose trips go booking → accept → arrive →
// start → reach → pay (cash) → complete over kept-alive HTTP. It answers its tallies to the parent.
import { Agent, request } from 'node:http';
import WebSocket from 'ws';
import { cityDriverToken, cityHome, cityRiderToken, CITY_STEPS, type CityCommand, type CityReport, type CityStep } from './city-shared';

const REPORT_EVERY_MS = 4000;
const TICK_MS = 250;
const REQUEST_TIMEOUT_MS = 30_000;
const OFFER_TIMEOUT_MS = 60_000;
/** One source address carries at most this many drivers: one address runs out of ports near 28,000. */
const PER_ADDRESS = 14_000;

type Driver = { index: number; token: string; ws: WebSocket | null; busy: boolean; address: string };
type Claim = { driver?: Driver; resolve?: (driver: Driver) => void };

const send = (message: CityReport) => process.send?.(message);
const commands: CityCommand[] = [];
let wake: (() => void) | null = null;
process.on('message', (message: CityCommand) => {
  commands.push(message);
  wake?.();
});
async function nextCommand(): Promise<CityCommand> {
  for (;;) {
    const command = commands.shift();
    if (command) return command;
    await new Promise<void>((resolve) => { wake = resolve; });
    wake = null;
  }
}

const start = await nextCommand();
if (start.type !== 'start') throw new Error('the first command must be start');
const { base, stamp, drivers: driverCount, riders: riderCount, seconds, rate, stepPauseMs } = start;
const url = new URL(base);
const port = Number(url.port);
const agent = new Agent({ keepAlive: true, maxSockets: 512 });

const latencies: Record<CityStep, number[]> = Object.fromEntries(CITY_STEPS.map((step) => [step, []])) as unknown as Record<CityStep, number[]>;
let errors = 0;
const firstErrors: string[] = [];
let positionsSent = 0;
const fail = (what: string) => {
  errors += 1;
  if (firstErrors.length < 5) firstErrors.push(what);
};

/** One API call over the kept-alive agent: its status and JSON body. */
function call(method: string, path: string, token: string, body?: unknown): Promise<{ status: number; json: unknown }> {
  return new Promise((resolve) => {
    const payload = body === undefined ? '' : JSON.stringify(body);
    const headers: Record<string, string | number> = { authorization: `Bearer ${token}` };
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = Buffer.byteLength(payload);
    }
    const req = request({ host: url.hostname, port, path, method, agent, headers, timeout: REQUEST_TIMEOUT_MS }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown = text;
        try {
          json = text ? JSON.parse(text) : null;
        } catch {
          // Not JSON: kept as text for the error line.
        }
        resolve({ status: res.statusCode ?? 0, json });
      });
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (error) => { resolve({ status: 0, json: error.message }); });
    req.end(payload);
  });
}

/** A step of a trip, timed; false when it failed (counted as an error). */
async function step(name: CityStep, method: string, path: string, token: string, body?: unknown): Promise<{ ok: boolean; json: unknown }> {
  const started = performance.now();
  const answer = await call(method, path, token, body);
  const ok = answer.status >= 200 && answer.status < 300;
  if (ok) latencies[name].push(performance.now() - started);
  else fail(`${name} ${String(answer.status)} ${JSON.stringify(answer.json).slice(0, 160)}`);
  return { ok, json: answer.json };
}

// Offers: the first idle driver that hears of a booking takes it; the others let it go, also
// when they hear of it after its trip ended.
const claims = new Map<string, Claim>();
const ended = new Set<string>();
function heardOffer(driver: Driver, bookingId: string): void {
  if (process.env.CITY_DEBUG) console.error(`offer ${bookingId} to ${String(driver.index)} busy=${String(driver.busy)} claimed=${String(Boolean(claims.get(bookingId)?.driver))} at ${String(Math.round(performance.now()))}`);
  if (driver.busy || ended.has(bookingId)) return;
  const claim = claims.get(bookingId);
  if (claim?.driver) return;
  driver.busy = true;
  if (claim?.resolve) {
    claim.driver = driver;
    claim.resolve(driver);
  } else claims.set(bookingId, { driver });
}
function offeredTo(bookingId: string): Promise<Driver | undefined> {
  const claimed = claims.get(bookingId)?.driver;
  if (claimed) return Promise.resolve(claimed);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      claims.delete(bookingId);
      ended.add(bookingId);
      resolve(undefined);
    }, OFFER_TIMEOUT_MS);
    claims.set(bookingId, { resolve: (driver) => { clearTimeout(timer); resolve(driver); } });
  });
}

const addresses = Math.max(2, Math.ceil(driverCount / PER_ADDRESS));
const drivers: Driver[] = Array.from({ length: driverCount }, (_, i) => ({ index: i + 1, token: cityDriverToken(stamp, i + 1), ws: null, busy: false, address: `127.0.0.${String(2 + (i % addresses))}` }));

function reportPosition(driver: Driver): void {
  if (driver.ws?.readyState !== WebSocket.OPEN) return;
  const home = cityHome(driver.index);
  const jitter = ((positionsSent % 7) - 3) / 20_000;
  driver.ws.send(JSON.stringify({ type: 'location', lat: home.lat + jitter, lng: home.lng - jitter }));
  positionsSent += 1;
}

/** Opens the driver's socket, follows `user:me`, goes online and reports its first position. */
async function connect(driver: Driver): Promise<void> {
  const ws = new WebSocket(`${base.replace('http', 'ws')}/api/ws`, { headers: { authorization: `Bearer ${driver.token}` }, localAddress: driver.address, perMessageDeflate: false });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => { resolve(); });
    ws.once('error', reject);
  });
  ws.on('message', (data: Buffer) => {
    const text = data.toString('utf8');
    if (text.includes('"error"')) fail(`driver ${String(driver.index)} socket: ${text.slice(0, 160)}`);
    if (!text.includes('"offer"')) return;
    const message = JSON.parse(text) as { event?: string; data?: { id?: string } };
    if (message.event === 'offer' && message.data?.id) heardOffer(driver, message.data.id);
  });
  ws.on('close', (code) => { if (!stopping) fail(`driver ${String(driver.index)} socket closed ${String(code)}`); });
  ws.send(JSON.stringify({ type: 'subscribe', topic: 'user:me' }));
  driver.ws = ws;
  const online = await call('PATCH', '/api/driver/status', driver.token, { driverActiveStatus: true });
  if (online.status !== 200) throw new Error(`driver ${String(driver.index)} could not go online: ${String(online.status)} ${JSON.stringify(online.json)}`);
  reportPosition(driver);
}

/** A point of the city around a home, for pickups and drops. */
const near = (index: number, km: number) => {
  const home = cityHome(index);
  return { lat: home.lat + km / 111, lng: home.lng + km / 70 };
};

/** One whole trip of `rider` (its token); answers whether it completed. */
async function trip(riderToken: string, n: number, pickupOf?: number): Promise<boolean> {
  const spot = pickupOf ?? 1 + ((n * 7919) % driverCount);
  const pickup = { ...near(spot, 0.2), add: `City pickup ${String(n)}` };
  const drop = { ...near(spot, 3), add: `City drop ${String(n)}` };
  const booked = await step('book', 'POST', '/api/bookings', riderToken, { pickup, drop, carType: 'Economy' });
  const id = (booked.json as { id?: string } | null)?.id;
  if (!booked.ok || !id) return false;
  const waited = performance.now();
  if (process.env.CITY_DEBUG) console.error(`booked ${id} at ${String(Math.round(waited))}`);
  const driver = await offeredTo(id);
  if (!driver) {
    fail(`booking ${id}: no idle driver was offered it within ${String(OFFER_TIMEOUT_MS / 1000)} s`);
    return false;
  }
  latencies.offer.push(performance.now() - waited);
  let freed = false;
  try {
    const pause = () => (stepPauseMs > 0 ? new Promise((resolve) => setTimeout(resolve, stepPauseMs)) : Promise.resolve());
    for (const [name, body] of [['accept', {}], ['arrive', {}], ['start', {}], ['reach', {}]] as const) {
      if (!(await step(name, 'POST', `/api/bookings/${id}/${name}`, driver.token, body)).ok) return false;
      await pause();
    }
    // The pay step frees the driver: an offer it hears from now on comes after that commit.
    freed = true;
    driver.busy = false;
    if (!(await step('pay', 'POST', `/api/bookings/${id}/pay`, driver.token, { payment_mode: 'cash' })).ok) return false;
  } finally {
    if (!freed) driver.busy = false;
    claims.delete(id);
    ended.add(id);
  }
  return (await step('complete', 'POST', `/api/bookings/${id}/complete`, riderToken, { rating: 5 })).ok;
}

let stopping = false;
async function ask(type: 'record-on' | 'record-off'): Promise<void> {
  send({ type });
  const answer = await nextCommand();
  if (answer.type !== 'ack') throw new Error(`expected an ack, got ${answer.type}`);
}

// One trip alone, its SQL recorded by the server's query log, before the city wakes up.
const first = drivers[0];
if (!first) throw new Error('no drivers');
await connect(first);
await ask('record-on');
const recorded = await trip(cityRiderToken(stamp, 0), 0, first.index);
await ask('record-off');
if (!recorded) throw new Error(`the recorded trip failed: ${firstErrors.join('; ')}`);
for (const name of CITY_STEPS) latencies[name].length = 0;

// The city wakes up: every driver's socket, 200 opening at once.
const connectStarted = performance.now();
let next = 1;
await Promise.all(Array.from({ length: 200 }, async () => {
  while (next < drivers.length) {
    const driver = drivers[next++];
    if (driver) await connect(driver);
  }
}));
const connectMs = performance.now() - connectStarted;
let tick = 0;
const ticker = setInterval(() => {
  const slots = REPORT_EVERY_MS / TICK_MS;
  const slot = tick % slots;
  tick += 1;
  for (let i = slot; i < drivers.length; i += slots) {
    const driver = drivers[i];
    if (driver) reportPosition(driver);
  }
}, TICK_MS);
// Every driver has reported once more before the riders come.
await new Promise((resolve) => setTimeout(resolve, REPORT_EVERY_MS + 1000));

const positionsBefore = positionsSent;
send({ type: 'window', open: true });
const cpuBefore = process.cpuUsage();
const started = performance.now();
const until = started + seconds * 1000;
let completed = 0;
let booked = 0;
let nextSlot = started;
/** In rate mode the next booking's time, shared by the riders; else at once. */
async function slot(): Promise<void> {
  if (rate <= 0) return;
  const at = nextSlot;
  nextSlot += 1000 / rate;
  const wait = at - performance.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
}
await Promise.all(Array.from({ length: riderCount }, async (_, r) => {
  const token = cityRiderToken(stamp, r + 1);
  for (let n = r; ; n += riderCount) {
    await slot();
    if (performance.now() >= until) return;
    booked += 1;
    if (await trip(token, n + 1)) {
      if (performance.now() <= until) completed += 1;
    }
  }
}));
const cpu = process.cpuUsage(cpuBefore);
send({ type: 'window', open: false });
const measuredMs = Math.min(performance.now(), until) - started;
const positionsPerSecond = ((positionsSent - positionsBefore) * 1000) / (performance.now() - started);
stopping = true;
clearInterval(ticker);
for (const driver of drivers) driver.ws?.terminate();
agent.destroy();
send({ type: 'done', latencies, errors, firstErrors, completed, booked, measuredMs, positionsPerSecond, connectMs, addresses, cpuSeconds: (cpu.user + cpu.system) / 1e6 });
process.disconnect();
