import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '../../src/db/client';
import type { EventBus, LiveMessage } from '../../src/realtime/bus';
import { catchingUpBus, type CatchingUpBus } from '../../src/realtime/catch-up';
import { emit, eventMessage, latestSeq } from '../../src/realtime/events';
import { relayEventsOnce } from '../../src/realtime/relay';
import { freshPglite } from '../fresh-databases';
import { countQueries } from '../query-count';

/** A Redis bus as a test drives it: what is published comes back to this process unless its subscription is down. */
function redisStandIn() {
  const handlers: ((message: LiveMessage) => void)[] = [];
  const healthHandlers: ((healthy: boolean) => void)[] = [];
  const state = { healthy: true, refuses: false };
  const bus: EventBus = {
    kind: 'redis',
    publish(message) {
      if (state.refuses) return Promise.reject(new Error('Connection is closed.'));
      if (state.healthy) for (const handler of handlers) handler(message);
      return Promise.resolve();
    },
    subscribe(handler) {
      handlers.push(handler);
    },
    endSessions: () => Promise.resolve(),
    onSessionsEnded() {},
    announceChanges: () => Promise.resolve(),
    onChangesAnnounced() {},
    healthy: () => state.healthy,
    onHealthChange(handler) {
      healthHandlers.push(handler);
    },
    close: () => Promise.resolve(),
  };
  return {
    bus,
    state,
    /** A message from Redis, published by another process. */
    arrive(message: LiveMessage) {
      for (const handler of handlers) handler(message);
    },
    setHealthy(healthy: boolean) {
      state.healthy = healthy;
      for (const handler of healthHandlers) handler(healthy);
    },
  };
}

/** The other process: its relay numbers and publishes events this one does not hear. */
const elsewhere: EventBus & { sent: LiveMessage[] } = {
  ...redisStandIn().bus,
  sent: [],
  publish(message) {
    elsewhere.sent.push(message);
    return Promise.resolve();
  },
};

/**
 * Issue 23 point 4: the cursor a process holds on the events it delivered, and what it reads from
 * the database when Redis kept events from it. Each event reaches the sockets' handler once.
 */
describe('events missed while Redis was lost are read from the database cursor (issue 23 point 4)', () => {
  let database: Database;
  const buses: CatchingUpBus[] = [];
  beforeAll(async () => {
    database = await freshPglite();
  });
  afterEach(async () => {
    for (const bus of buses.splice(0)) await bus.close();
  });
  afterAll(() => database.close());

  let now = 1_000_000;
  const produce = async (count: number, relayBus: EventBus = elsewhere) => {
    for (let i = 0; i < count; i += 1) await emit(database.db, 'booking:b1', 'booking', { n: i }, (now += 1));
    await relayEventsOnce(database.db, relayBus, now);
  };

  async function setUp(interested = () => true) {
    const redis = redisStandIn();
    const upstream = { up: true, fallbacks: 0, isUp: () => upstream.up, fellBack: (_operation: 'bus_publish', error?: unknown) => { upstream.fallbacks += 1; if (error !== undefined) upstream.up = false; } };
    const bus = await catchingUpBus(redis.bus, { db: database.db, upstream, onError: (error) => { throw error; } });
    buses.push(bus);
    const received: number[] = [];
    bus.subscribe((message) => received.push(message.seq ?? -1), interested);
    return { bus, redis, upstream, received };
  }

  it('delivers a publish that Redis refuses to its own handlers at once, and its late copy not again', async () => {
    const { bus, redis, upstream, received } = await setUp();
    redis.state.refuses = true;
    const first = (await latestSeq(database.db)) + 1;
    await produce(2, bus);
    expect(received).toEqual([first, first + 1]);
    expect(upstream.fallbacks).toBeGreaterThan(0);

    redis.state.refuses = false;
    upstream.up = true;
    for (const message of [eventMessage(first, 'booking:b1', { event: 'booking', data: {} }), eventMessage(first + 1, 'booking:b1', { event: 'booking', data: {} })]) redis.arrive(message);
    expect(received).toEqual([first, first + 1]);
  });

  it('reads what another process published while its bus was down when the bus is back, once', async () => {
    const { bus, redis, received } = await setUp();
    const first = (await latestSeq(database.db)) + 1;
    redis.setHealthy(false);
    elsewhere.sent.length = 0;
    await produce(3);
    redis.setHealthy(true);
    await bus.catchUp();
    expect(received).toEqual([first, first + 1, first + 2]);
    // The same events, late through Redis: already delivered.
    for (const message of elsewhere.sent) redis.arrive(message);
    expect(received).toEqual([first, first + 1, first + 2]);
  });

  it('keeps reading new events from the database while the bus is down', async () => {
    const { redis, received } = await setUp();
    const first = (await latestSeq(database.db)) + 1;
    redis.setHealthy(false);
    await produce(2);
    await vi.waitFor(() => { expect(received).toEqual([first, first + 1]); }, { timeout: 5000, interval: 50 });
  });

  it('fills a cursor that does not arrive from the database, and delivers everything once', async () => {
    const { redis, received } = await setUp();
    const first = (await latestSeq(database.db)) + 1;
    elsewhere.sent.length = 0;
    await produce(3);
    // Only the last one comes through Redis (the publish of the others was lost).
    const last = elsewhere.sent.at(-1);
    if (!last) throw new Error('nothing relayed');
    redis.arrive(last);
    // Held above the gap: a socket never receives a cursor before a lower one.
    expect(received).toEqual([]);
    await vi.waitFor(() => { expect(received).toEqual([first, first + 1, first + 2]); }, { timeout: 5000, interval: 50 });
    for (const message of elsewhere.sent) redis.arrive(message);
    expect(received).toHaveLength(3);
  });

  it('delivers events that two processes published in cursor order, whichever reached Redis first', async () => {
    const { redis, received } = await setUp();
    const first = (await latestSeq(database.db)) + 1;
    elsewhere.sent.length = 0;
    await produce(3);
    const [one, two, three] = elsewhere.sent;
    if (!one || !two || !three) throw new Error('nothing relayed');
    // The third first, then the second: both wait for the first, which arrives a moment later.
    redis.arrive(three);
    redis.arrive(two);
    expect(received).toEqual([]);
    redis.arrive(one);
    expect(received).toEqual([first, first + 1, first + 2]);
  });

  it('reads nothing while nobody listens, and then starts from the cursor the first socket was given', async () => {
    const listening = { now: false };
    const { bus, redis, received } = await setUp(() => listening.now);
    redis.setHealthy(false);
    await produce(2);
    const queries = countQueries(database.db);
    try {
      redis.setHealthy(true);
      await bus.catchUp();
      expect(queries.statements).toEqual([]);
    } finally {
      queries.stop();
    }
    expect(received).toEqual([]);

    // A socket follows, given the newest cursor; what follows reaches it, what came before does not.
    listening.now = true;
    const from = await latestSeq(database.db);
    bus.followedFrom?.(from);
    redis.setHealthy(false);
    await produce(1);
    redis.setHealthy(true);
    await bus.catchUp();
    expect(received).toEqual([from + 1]);
  });
});
