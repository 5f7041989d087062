// The city simulation's load generator (issue 21 point 6), a child process of city.ts: the drivers'
// WebSockets (offers arrive on `user:me`, positions go out as `location` messages every 4 s, over
// several 127.0.0.x source addresses), and riders whose trips go booking → accept → arrive →
// start → reach → pay (cash) → complete over kept-alive HTTP. It answers its tallies to the parent.
// Like real apps behind a load balancer (the scale-out test of issue 23 kills a server under it),
// a request whose connection broke is sent again, and a driver's socket that closed reconnects
// and resumes from its cursor.
import { randomUUID } from 'node:crypto';
import { Agent, request } from 'node:http';
import { BOOKING_STATUSES } from '@rideway/domain';
import WebSocket from 'ws';
import { cityDriverToken, cityHome, cityRiderToken, CITY_STEPS, type CityCommand, type CityReport, type CityStep } from './city-shared';

const REPORT_EVERY_MS = 4000;
const TICK_MS = 250;
const REQUEST_TIMEOUT_MS = 30_000;
const OFFER_TIMEOUT_MS = 60_000;
/** One source address carries at most this many drivers: one address runs out of ports near 28,000. */
const PER_ADDRESS = 14_000;
/** Waits before sending a request again, or reconnecting a socket, after its connection broke (as the web app's live client). */
const RETRY_MS = [250, 500, 1000, 2000, 4000, 8000];

/** `cursor`: the newest event seen on `user:me`, where a reconnected socket resumes. */
/**
 * A simulated driver. `paying` is set while its trip's pay step is unanswered: it is still on that
 * trip for the server until the pay commits, so an offer it hears meanwhile waits in `deferred`.
 */
type Driver = { index: number; token: string; ws: WebSocket | null; busy: boolean; paying: boolean; deferred: string[]; address: string; cursor?: number };
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
let reconnects = 0;
const interruptions: { at: number; step: string; status: number }[] = [];
const completions: number[] = [];
const fail = (what: string) => {
  errors += 1;
  if (firstErrors.length < 5) firstErrors.push(what);
};

/** One API call over the kept-alive agent: its status (0: the connection broke) and JSON body. */
function call(method: string, path: string, token: string, body?: unknown, idempotencyKey?: string): Promise<{ status: number; json: unknown }> {
  return new Promise((resolve) => {
    const payload = body === undefined ? '' : JSON.stringify(body);
    const headers: Record<string, string | number> = { authorization: `Bearer ${token}` };
    if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
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

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** No answer from a server: the connection broke (a server killed under the balancer), or the balancer found none. */
const isBroken = (status: number) => status === 0 || status === 502 || status === 503;

/** Where each step leaves a booking: a step whose answer was lost is done when the booking got there. */
const LEAVES_AT: Partial<Record<CityStep, (typeof BOOKING_STATUSES)[number]>> = { accept: 'ACCEPTED', arrive: 'ARRIVED', start: 'STARTED', reach: 'REACHED', pay: 'PAID', complete: 'COMPLETE' };
async function hasReached(bookingId: string, name: CityStep, token: string): Promise<boolean> {
  const target = LEAVES_AT[name];
  const answer = await call('GET', `/api/bookings/${bookingId}`, token);
  const status = (answer.json as { status?: string } | null)?.status ?? '';
  return target !== undefined && status !== 'CANCELLED' && BOOKING_STATUSES.indexOf(status as typeof target) >= BOOKING_STATUSES.indexOf(target);
}

const isKeyInUse = (json: unknown) => (json as { error?: { code?: string } } | null)?.error?.code === 'idempotency_key_in_use';

/**
 * A step of a trip, timed; false when it failed (counted as an error). A step whose connection
 * broke is sent again, booking and paying with the same Idempotency-Key; when the retry is
 * refused, the booking tells whether the first attempt went through. A key whose request died
 * with its server before it wrote anything stays claimed for a while: the booking not there yet,
 * the step is sent again under a new key (the booking's state guards it).
 */
async function step(name: CityStep, method: string, path: string, token: string, body?: unknown, bookingId?: string): Promise<{ ok: boolean; json: unknown }> {
  const started = performance.now();
  const newKey = () => (name === 'book' || name === 'pay' ? randomUUID() : undefined);
  let key = newKey();
  for (let attempt = 0; ; attempt += 1) {
    const answer = await call(method, path, token, body, key);
    if (answer.status >= 200 && answer.status < 300) {
      latencies[name].push(performance.now() - started);
      return { ok: true, json: answer.json };
    }
    if (answer.status === 0 || answer.status >= 500) interruptions.push({ at: Date.now(), step: name, status: answer.status });
    const delay = RETRY_MS[attempt];
    if (isBroken(answer.status) && delay !== undefined) {
      await pause(delay);
      continue;
    }
    if (attempt > 0 && bookingId && (await hasReached(bookingId, name, token))) return { ok: true, json: answer.json };
    if (attempt > 0 && answer.status === 409 && isKeyInUse(answer.json) && delay !== undefined) {
      key = newKey();
      continue;
    }
    fail(`${name} ${path} ${String(answer.status)} ${JSON.stringify(answer.json).slice(0, 160)}`);
    return { ok: false, json: answer.json };
  }
}

// Offers: the first idle driver that hears of a booking takes it; the others let it go, also
// when they hear of it after its trip ended.
const claims = new Map<string, Claim>();
const ended = new Set<string>();
function heardOffer(driver: Driver, bookingId: string): void {
  if (process.env.CITY_DEBUG) console.error(`offer ${bookingId} to ${String(driver.index)} busy=${String(driver.busy)} claimed=${String(Boolean(claims.get(bookingId)?.driver))} at ${String(Math.round(performance.now()))}`);
  if (driver.busy && driver.paying) driver.deferred.push(bookingId);
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
const drivers: Driver[] = Array.from({ length: driverCount }, (_, i) => ({ index: i + 1, token: cityDriverToken(stamp, i + 1), ws: null, busy: false, paying: false, deferred: [], address: `127.0.0.${String(2 + (i % addresses))}` }));

function reportPosition(driver: Driver): void {
  if (driver.ws?.readyState !== WebSocket.OPEN) return;
  const home = cityHome(driver.index);
  const jitter = ((positionsSent % 7) - 3) / 20_000;
  driver.ws.send(JSON.stringify({ type: 'location', lat: home.lat + jitter, lng: home.lng - jitter }));
  positionsSent += 1;
}

/**
 * Opens the driver's socket and follows `user:me`, from its cursor when it had one (the server
 * replays the offers it missed). A socket that closes opens again, as the web app's does.
 */
async function openSocket(driver: Driver): Promise<void> {
  const ws = new WebSocket(`${base.replace('http', 'ws')}/api/ws`, { headers: { authorization: `Bearer ${driver.token}` }, localAddress: driver.address, perMessageDeflate: false });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => { resolve(); });
    ws.once('error', reject);
  });
  // A broken connection says so here, then closes.
  ws.on('error', () => undefined);
  ws.on('message', (data: Buffer) => {
    const text = data.toString('utf8');
    if (text.includes('"error"')) fail(`driver ${String(driver.index)} socket: ${text.slice(0, 160)}`);
    const message = JSON.parse(text) as { type?: string; event?: string; seq?: number; data?: { id?: string } };
    if (message.type === 'subscribed') driver.cursor ??= message.seq;
    if (message.seq !== undefined) driver.cursor = Math.max(message.seq, driver.cursor ?? 0);
    if (message.event === 'offer' && message.data?.id) heardOffer(driver, message.data.id);
  });
  ws.on('close', () => { if (!stopping && driver.ws === ws) void reconnect(driver); });
  ws.send(JSON.stringify(driver.cursor === undefined ? { type: 'subscribe', topic: 'user:me' } : { type: 'subscribe', topic: 'user:me', since: driver.cursor }));
  driver.ws = ws;
}

async function reconnect(driver: Driver): Promise<void> {
  driver.ws = null;
  reconnects += 1;
  for (const delay of RETRY_MS) {
    await pause(delay);
    if (stopping) return;
    try {
      await openSocket(driver);
      reportPosition(driver);
      return;
    } catch {
      // Not yet: the next wait is longer.
    }
  }
  fail(`driver ${String(driver.index)} could not reconnect its socket`);
}

/**
 * Opens the driver's socket, goes online and reports its first position, over HTTP: its answer
 * says the position was taken (a socket's is not answered, and may be handled by one server
 * process after a booking on another looked for drivers).
 */
async function connect(driver: Driver): Promise<void> {
  await openSocket(driver);
  const online = await call('PATCH', '/api/driver/status', driver.token, { driverActiveStatus: true });
  if (online.status !== 200) throw new Error(`driver ${String(driver.index)} could not go online: ${String(online.status)} ${JSON.stringify(online.json)}`);
  const located = await call('POST', '/api/driver/location', driver.token, cityHome(driver.index));
  if (located.status !== 200) throw new Error(`driver ${String(driver.index)} could not report its position: ${String(located.status)} ${JSON.stringify(located.json)}`);
}

/** A point of the city around a home, for pickups and drops. */
const near = (index: number, km: number) => {
  const home = cityHome(index);
  return { lat: home.lat + km / 111, lng: home.lng + km / 70 };
};

/** The driver is idle again, and takes up an offer it heard while its pay was unanswered. */
function freeDriver(driver: Driver): void {
  driver.busy = false;
  driver.paying = false;
  for (const bookingId of driver.deferred.splice(0)) heardOffer(driver, bookingId);
}

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
  if (process.env.CITY_DEBUG) console.error(`driver ${String(driver.index)} takes ${id} at ${String(Math.round(performance.now()))}`);
  try {
    for (const [name, body] of [['accept', {}], ['arrive', {}], ['start', {}], ['reach', {}]] as const) {
      if (!(await step(name, 'POST', `/api/bookings/${id}/${name}`, driver.token, body, id)).ok) return false;
      if (stepPauseMs > 0) await pause(stepPauseMs);
    }
    // The pay step frees the driver once it is answered, as a driver's app would: until then the
    // server may still hold it on this trip (a pay request lost with a killed process is sent
    // again later), and accepting another would be refused with driver_busy. An offer heard while
    // the pay is unanswered (the server's, sent right after the pay commits) is taken up after it.
    driver.paying = true;
    const paid = (await step('pay', 'POST', `/api/bookings/${id}/pay`, driver.token, { payment_mode: 'cash' }, id)).ok;
    if (process.env.CITY_DEBUG) console.error(`driver ${String(driver.index)} paid ${id} at ${String(Math.round(performance.now()))}`);
    if (!paid) return false;
  } finally {
    // After the pay's answer, or after a step that failed.
    freeDriver(driver);
    claims.delete(id);
    ended.add(id);
  }
  const completed = (await step('complete', 'POST', `/api/bookings/${id}/complete`, riderToken, { rating: 5 }, id)).ok;
  if (completed) completions.push(Date.now());
  return completed;
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
// The channel closes once the report has been handed over: a disconnect right after the send
// could drop it, and the parent saw the process exit 0 without a report (a 1,000-driver run).
process.send?.({ type: 'done', latencies, errors, firstErrors, completed, booked, measuredMs, positionsPerSecond, connectMs, addresses, cpuSeconds: (cpu.user + cpu.system) / 1e6, reconnects, interruptions, completions } satisfies CityReport, () => { process.disconnect(); });
