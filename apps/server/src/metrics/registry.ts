/**
 * The server's Prometheus metrics (issue 23 point 2; every series is described in
 * docs/decisions.md "Issue 23 point 2: metrics"). One registry per app, never prom-client's
 * global one: tests build many apps in one process, and each must count only its own work.
 *
 * Counters are incremented where things happen (the recorder the services reach through
 * `ctx.metrics`); gauges are read at scrape time. A source that fails at a scrape (the database
 * or Redis out of reach) is logged and counted, and its series are left out of that scrape rather
 * than failing it or showing a stale or zero value.
 */
import type { FastifyBaseLogger } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Db } from '../db/client';
import type { GeoIndex } from '../providers/geo/port';
import type { LiveSocketStats } from '../realtime/gateway';
import type { RedisStatus } from '../realtime/live';
import type { FallbackOperation } from '../realtime/redis-link';
import type { MetricsRecorder, OfferOutcome } from './recorder';
import { activeBookingsByStatus, dueJobs, outboxBacklog } from './scrape-queries';

/** Where the gauges read from at a scrape. */
export type MetricSources = {
  db: Db;
  /** The app's clock (epoch ms), so ages agree with the times the server wrote. */
  now: () => number;
  geo: GeoIndex;
  /** The gateway's sockets; undefined before the gateway is registered. */
  sockets: () => LiveSocketStats | undefined;
  /** Redis as this process sees it; absent without REDIS_URL (its series are then left out). */
  redis?: () => RedisStatus;
  log: FastifyBaseLogger;
};

export type AppMetrics = MetricsRecorder & {
  /** The text exposition of every series, its gauges read now. */
  scrape(): Promise<string>;
  readonly contentType: string;
  /** One HTTP request answered, by its route's pattern (never the raw URL). */
  observeRequest(method: string, route: string, statusCode: number, seconds: number): void;
};

/** Seconds: from a cached read to a slow report, past which the client has given up anyway. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const OFFER_OUTCOMES: readonly OfferOutcome[] = ['accepted', 'declined', 'expired'];
const FALLBACK_OPERATIONS: readonly FallbackOperation[] = ['geo_write', 'geo_read', 'bus_publish'];

const ageSeconds = (now: number, since: number | null): number => (since === null ? 0 : Math.max(0, (now - since) / 1000));

export function createMetrics(sources: MetricSources): AppMetrics {
  const registry = new Registry();
  // Process CPU, memory, heap, GC, handles and event loop lag, under prom-client's usual names.
  collectDefaultMetrics({ register: registry });
  const registers = [registry];

  const sourceErrors = new Counter({
    name: 'rideway_metrics_source_errors_total',
    help: 'Scrapes at which a source (database, geo index) failed and its series were left out',
    labelNames: ['source'] as const,
    registers,
    // Waits for this scrape's reads (shared, so no read twice): a failure shows in the scrape it happened in.
    async collect() {
      await Promise.all(reads.map((read) => read()));
    },
  });

  /**
   * A source read once per scrape, however many gauges show it (they collect side by side, so
   * they share the read in flight); a failure is logged and counted once, and reads as undefined.
   */
  const shared = <T>(source: string, read: () => Promise<T>): (() => Promise<T | undefined>) => {
    let pending: Promise<T | undefined> | undefined;
    return () =>
      (pending ??= read()
        .catch((error: unknown) => {
          sourceErrors.inc({ source });
          sources.log.warn({ err: error, source }, 'a metrics source failed: its series are left out of this scrape');
          return undefined;
        })
        .finally(() => {
          pending = undefined;
        }));
  };
  const readBookings = shared('bookings', () => activeBookingsByStatus(sources.db));
  const readJobs = shared('jobs', () => dueJobs(sources.db, sources.now()));
  const readOutbox = shared('outbox', () => outboxBacklog(sources.db));
  const readGeo = shared('geo', () => sources.geo.size());
  const reads = [readBookings, readJobs, readOutbox, readGeo];

  const requests = new Counter({ name: 'rideway_http_requests_total', help: 'HTTP requests answered, by method, route pattern and status', labelNames: ['method', 'route', 'status_code'] as const, registers });
  const latency = new Histogram({ name: 'rideway_http_request_duration_seconds', help: 'Time to answer an HTTP request, by method and route pattern', labelNames: ['method', 'route'] as const, buckets: LATENCY_BUCKETS, registers });

  new Gauge({
    name: 'rideway_ws_connections',
    help: 'WebSocket connections open on this process',
    registers,
    collect() {
      const stats = sources.sockets();
      this.set(stats?.connections ?? 0);
    },
  });
  new Gauge({
    name: 'rideway_ws_topics',
    help: 'Distinct topics followed on this process, by kind',
    labelNames: ['kind'] as const,
    registers,
    collect() {
      this.reset();
      for (const [kind, topics] of sources.sockets()?.topicsByKind ?? []) this.set({ kind }, topics);
    },
  });
  new Gauge({
    name: 'rideway_ws_subscriptions',
    help: 'Topic subscriptions (connection and topic pairs) on this process',
    registers,
    collect() {
      this.set(sources.sockets()?.subscriptions ?? 0);
    },
  });

  new Gauge({
    name: 'rideway_bookings_active',
    help: 'Active bookings by status (finished ones are history, not counted)',
    labelNames: ['status'] as const,
    registers,
    async collect() {
      const counts = await readBookings();
      this.reset();
      for (const [status, bookings] of counts ?? []) this.set({ status }, bookings);
    },
  });

  new Gauge({
    name: 'rideway_jobs_due',
    help: 'Jobs due and not done, still to be tried, by kind',
    labelNames: ['kind'] as const,
    registers,
    async collect() {
      const rows = await readJobs();
      this.reset();
      for (const row of rows ?? []) if (!row.dead) this.set({ kind: row.kind }, row.count);
    },
  });
  new Gauge({
    name: 'rideway_jobs_oldest_due_age_seconds',
    help: 'How long the oldest due job still to be tried has been due, by kind',
    labelNames: ['kind'] as const,
    registers,
    async collect() {
      const rows = await readJobs();
      this.reset();
      for (const row of rows ?? []) if (!row.dead) this.set({ kind: row.kind }, ageSeconds(sources.now(), row.oldestRunAt));
    },
  });
  new Gauge({
    name: 'rideway_jobs_dead',
    help: 'Jobs out of attempts and not done (never run again without a person), by kind',
    labelNames: ['kind'] as const,
    registers,
    async collect() {
      const rows = await readJobs();
      this.reset();
      for (const row of rows ?? []) if (row.dead) this.set({ kind: row.kind }, row.count);
    },
  });

  new Gauge({
    name: 'rideway_outbox_backlog',
    help: 'Outbox messages waiting to be delivered (not delivered, not given up), by channel',
    labelNames: ['channel'] as const,
    registers,
    async collect() {
      const rows = await readOutbox();
      this.reset();
      for (const row of rows ?? []) this.set({ channel: row.channel }, row.count);
    },
  });
  new Gauge({
    name: 'rideway_outbox_oldest_age_seconds',
    help: 'Age of the oldest waiting outbox message, by channel (0 when none waits)',
    labelNames: ['channel'] as const,
    registers,
    async collect() {
      const rows = await readOutbox();
      this.reset();
      for (const row of rows ?? []) this.set({ channel: row.channel }, ageSeconds(sources.now(), row.oldestCreatedAt));
    },
  });

  new Gauge({
    name: 'rideway_geo_index_drivers',
    help: 'Drivers the live geo index holds (online; stale ones until the sweep), by index kind',
    labelNames: ['index'] as const,
    registers,
    async collect() {
      const size = await readGeo();
      this.reset();
      if (size !== undefined) this.set({ index: sources.geo.kind }, size);
    },
  });

  const redis = sources.redis;
  if (redis) {
    // Issue 23 point 4: Redis lost, and what the process did instead.
    new Gauge({
      name: 'rideway_redis_up',
      help: 'Whether this process reaches Redis (1) or serves from its own index and the database (0)',
      registers,
      collect() {
        this.set(redis().up ? 1 : 0);
      },
    });
    new Counter({
      name: 'rideway_redis_fallbacks_total',
      help: "Operations served by this process's own means while Redis was out of reach: geo_write, geo_read (its own driver index), bus_publish (an event kept to this process)",
      labelNames: ['operation'] as const,
      registers,
      collect() {
        const counts = redis().fallbacks;
        this.reset();
        for (const operation of FALLBACK_OPERATIONS) this.inc({ operation }, counts.get(operation) ?? 0);
      },
    });
    new Counter({
      name: 'rideway_bus_replayed_events_total',
      help: 'Events delivered to this process from the database cursor rather than from Redis (missed while Redis was out of reach)',
      registers,
      collect() {
        this.reset();
        this.inc(redis().replayed);
      },
    });
  }

  const rounds = new Counter({ name: 'rideway_dispatch_rounds_total', help: 'Rounds of offers sent to drivers', registers });
  const offers = new Counter({ name: 'rideway_dispatch_offers_total', help: 'Offers sent to drivers (one per driver per round)', registers });
  const outcomes = new Counter({ name: 'rideway_dispatch_offer_outcomes_total', help: 'Offers by what became of them: accepted, declined, or expired unanswered at the end of their round', labelNames: ['outcome'] as const, registers });
  // Every outcome is present from the start, so a rate over it never reads as missing.
  for (const outcome of OFFER_OUTCOMES) outcomes.inc({ outcome }, 0);
  const payments = new Counter({ name: 'rideway_payment_confirmations_total', help: "Payment providers' news acted on, by provider and outcome (paid, credited, failed, mismatch, replayed...)", labelNames: ['provider', 'outcome'] as const, registers });

  return {
    scrape: () => registry.metrics(),
    contentType: registry.contentType,
    observeRequest(method, route, statusCode, seconds) {
      requests.inc({ method, route, status_code: String(statusCode) });
      latency.observe({ method, route }, seconds);
    },
    dispatchRound(sent, expired) {
      rounds.inc();
      offers.inc(sent);
      outcomes.inc({ outcome: 'expired' }, expired);
    },
    offerOutcome(outcome) {
      outcomes.inc({ outcome });
    },
    paymentConfirmation(provider, outcome) {
      payments.inc({ provider, outcome });
    },
  };
}
