/**
 * Issue 23 point 2: Prometheus metrics at /metrics, on an address or a token of the operator's
 * choosing, never public by default. Scraped here after real work (a booking taken, one declined,
 * one left unanswered, an estimate, a WebSocket, a payment's news), with the key series present
 * and sensible; and every way in that is not the operator's refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { SESSION_COOKIE } from '../../src/modules/accounts/sessions';
import { applyPaymentEvent } from '../../src/modules/payments/confirm';
import type { UserRow } from '../../src/modules/users/accounts';
import { drop, pickup, sedan } from '../fixtures';
import { codeOf, createTestApp, ENGINES, type TestApp } from '../harness';
import type { LiveClient } from '../live-client';
import { valueOf } from '../prometheus';

const TOKEN = 'metrics-0123456789abcdef0123456789abcdef';
// A loaded test machine (PGlite's work blocks the loop) must not shed these requests (issue 23 point 1).
const UNSHED = { PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '0' };


describe('the metrics settings (issue 23 point 2)', () => {
  it('takes a long token, a port and a host, and refuses a short token or a bad port', () => {
    expect(loadConfig({ METRICS_TOKEN: TOKEN, METRICS_PORT: '9464', METRICS_HOST: '10.0.0.5' })).toMatchObject({ METRICS_TOKEN: TOKEN, METRICS_PORT: 9464, METRICS_HOST: '10.0.0.5' });
    const unset = loadConfig({});
    expect([unset.METRICS_TOKEN, unset.METRICS_PORT, unset.METRICS_HOST]).toEqual([undefined, undefined, '127.0.0.1']);
    expect(loadConfig({ METRICS_PORT: '' }).METRICS_PORT).toBeUndefined();
    expect(() => loadConfig({ METRICS_TOKEN: 'short-secret' })).toThrow(/METRICS_TOKEN/);
    expect(() => loadConfig({ METRICS_PORT: 'ninety' })).toThrow(/METRICS_PORT/);
    expect(() => loadConfig({ METRICS_PORT: '70000' })).toThrow(/METRICS_PORT/);
  });
});

describe.each(ENGINES)('metrics on %s (issue 23 point 2)', (engine) => {
  describe('with neither METRICS_TOKEN nor METRICS_PORT', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(engine, UNSHED);
    });
    afterAll(() => t.close());

    it('has no /metrics at all, and measures nothing', async () => {
      const admin = await t.makeUser('admin');
      for (const as of [null, admin]) {
        const response = await t.request({ method: 'GET', url: '/metrics', as, headers: { authorization: `Bearer ${TOKEN}` } });
        expect(response.statusCode).toBe(404);
        expect(codeOf(response)).toBe('not_found');
      }
      expect(t.app.ctx.metrics).toBeUndefined();
      expect(t.app.metricsListenerUrl).toBeUndefined();
      expect(t.app.routeAccess.has('GET /metrics')).toBe(false);
    });
  });

  describe('with METRICS_TOKEN', () => {
    let t: TestApp;
    let admin: UserRow;
    let live: LiveClient;
    const scrape = async () => {
      const response = await t.request({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(response.headers['cache-control']).toBe('no-store');
      return response.body;
    };
    const book = (rider: UserRow) => t.request({ method: 'POST', url: '/api/bookings', as: rider, payload: { pickup, drop, carType: 'Sedan' } });

    beforeAll(async () => {
      t = await createTestApp(engine, { ...UNSHED, METRICS_TOKEN: TOKEN, OFFER_BATCH_SIZE: '1', OFFER_TIMEOUT_S: '20' });
      admin = await t.makeUser('admin');
      expect((await t.request({ method: 'POST', url: '/api/cartypes', as: admin, payload: sedan })).statusCode).toBe(201);
    });
    afterAll(() => t.close());

    it('answers 401 to anyone without the token: none, a wrong one, a rider\'s session by cookie or bearer, an admin\'s', async () => {
      const rider = await t.makeUser('rider');
      const riderToken = await t.tokenOf(rider);
      const attempts: Record<string, string>[] = [
        {},
        { authorization: `Bearer ${TOKEN.slice(0, -1)}x` },
        { authorization: `Bearer ${TOKEN}extra` },
        { authorization: `Basic ${Buffer.from(`metrics:${TOKEN}`).toString('base64')}` },
        { authorization: TOKEN },
        { cookie: `${SESSION_COOKIE}=${riderToken}` },
        { authorization: `Bearer ${riderToken}` },
        { authorization: `Bearer ${await t.tokenOf(admin)}` },
      ];
      for (const headers of attempts) {
        const response = await t.request({ method: 'GET', url: '/metrics', headers });
        expect(response.statusCode, JSON.stringify(headers)).toBe(401);
        expect(codeOf(response)).toBe('not_logged_in');
        expect(response.headers['www-authenticate']).toBe('Bearer realm="metrics"');
        expect(response.body).not.toContain('rideway_');
      }
      // Signed in as the rider through the harness too, and even with a wrong token beside the session.
      expect((await t.request({ method: 'GET', url: '/metrics', as: rider })).statusCode).toBe(401);
      expect((await t.request({ method: 'GET', url: '/metrics', as: admin })).statusCode).toBe(401);
      // Only GET (and its HEAD) exist: a write is no way in either.
      expect((await t.request({ method: 'POST', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).statusCode).toBe(404);
    });

    it('after real work, serves the key series with sensible values and no ids in any label', async () => {
      // A booking taken: the one driver online is offered it and accepts.
      const taker = await t.makeUser('driver', { carType: 'Sedan' });
      await t.goOnline(taker);
      const first = await book(await t.makeUser('rider'));
      expect(first.statusCode, first.body).toBe(201);
      const accepted = await t.request({ method: 'POST', url: `/api/bookings/${first.json<{ id: string }>().id}/accept`, as: taker });
      expect(accepted.statusCode, accepted.body).toBe(200);
      // A booking declined: the second driver (the first is on a trip) is offered it and declines.
      const decliner = await t.makeUser('driver', { carType: 'Sedan' });
      await t.goOnline(decliner);
      const second = await book(await t.makeUser('rider'));
      const secondId = second.json<{ id: string }>().id;
      expect((await t.request({ method: 'POST', url: `/api/bookings/${secondId}/decline`, as: decliner })).statusCode).toBe(200);
      // A booking left unanswered: a third driver's offer expires at the round's timeout.
      const silent = await t.makeUser('driver', { carType: 'Sedan' });
      await t.goOnline(silent);
      const third = await book(await t.makeUser('rider'));
      expect(third.statusCode, third.body).toBe(201);
      t.advance(21_000);
      await t.runJobs();
      // The next round's timeout is due and not run yet: the queue holds it.
      t.advance(25_000);
      // An estimate, a request no route matches, and a WebSocket following the rider's own topic.
      const rider = await t.makeUser('rider');
      expect((await t.request({ method: 'POST', url: '/api/estimates', as: rider, payload: { pickup, drop, carType: 'Sedan' } })).statusCode).toBe(200);
      expect((await t.request({ method: 'DELETE', url: '/no/such/place/42' })).statusCode).toBe(404);
      live = await t.live(rider);
      expect((await live.subscribe('user:me')).type).toBe('subscribed');
      // A payment provider's news about nothing this platform knows, then its replay.
      const news = { type: 'payment_succeeded', eventId: 'evt-metrics-1', reference: 'no-such-booking', transactionId: 'tx-1', amountMinor: 100, currency: 'USD' } as const;
      expect((await applyPaymentEvent(t.app.ctx, 'test', news, 'test')).outcome).toBe('unknown_reference');
      expect((await applyPaymentEvent(t.app.ctx, 'test', news, 'test')).replayed).toBe(true);

      const text = await scrape();
      // Requests per route pattern, never the URL: the accept counted under its pattern, the stray request as unmatched.
      expect(valueOf(text, 'rideway_http_requests_total', { method: 'POST', route: '/api/bookings/:id/accept', status_code: '200' })).toBe(1);
      expect(valueOf(text, 'rideway_http_requests_total', { method: 'POST', route: '/api/bookings', status_code: '201' })).toBe(3);
      expect(valueOf(text, 'rideway_http_requests_total', { method: 'POST', route: '/api/estimates', status_code: '200' })).toBe(1);
      expect(valueOf(text, 'rideway_http_requests_total', { method: 'DELETE', route: 'unmatched', status_code: '404' })).toBe(1);
      expect(valueOf(text, 'rideway_http_requests_total', { method: 'GET', route: '/metrics', status_code: '401' })).toBeGreaterThanOrEqual(0);
      expect(valueOf(text, 'rideway_http_request_duration_seconds_count', { method: 'POST', route: '/api/estimates' })).toBe(1);
      expect(valueOf(text, 'rideway_http_request_duration_seconds_bucket', { method: 'POST', route: '/api/estimates', le: '+Inf' })).toBe(1);
      for (const id of [first.json<{ id: string }>().id, secondId, rider.id, taker.id]) expect(text).not.toContain(id);
      // Bookings by status: one taken, two still searching; every active status present.
      expect(valueOf(text, 'rideway_bookings_active', { status: 'ACCEPTED' })).toBe(1);
      expect(valueOf(text, 'rideway_bookings_active', { status: 'NEW' })).toBe(2);
      expect(valueOf(text, 'rideway_bookings_active', { status: 'PAYMENT_PENDING' })).toBe(0);
      expect(valueOf(text, 'rideway_bookings_active', { status: 'COMPLETE' })).toBeUndefined();
      // Dispatch: rounds and offers sent, and each outcome once.
      expect(valueOf(text, 'rideway_dispatch_rounds_total')).toBeGreaterThanOrEqual(4);
      expect(valueOf(text, 'rideway_dispatch_offers_total')).toBeGreaterThanOrEqual(3);
      expect(valueOf(text, 'rideway_dispatch_offer_outcomes_total', { outcome: 'accepted' })).toBe(1);
      expect(valueOf(text, 'rideway_dispatch_offer_outcomes_total', { outcome: 'declined' })).toBe(1);
      expect(valueOf(text, 'rideway_dispatch_offer_outcomes_total', { outcome: 'expired' })).toBe(1);
      // The job queue: the round timeouts due 5 s ago wait, as old as that.
      expect(valueOf(text, 'rideway_jobs_due', { kind: 'dispatch.round' })).toBeGreaterThanOrEqual(1);
      expect(valueOf(text, 'rideway_jobs_oldest_due_age_seconds', { kind: 'dispatch.round' })).toBeGreaterThanOrEqual(5);
      // The outbox: every channel reported; the push notices of the offers wait (no push relay runs in tests).
      for (const channel of ['mail', 'sms', 'push', 'event']) expect(valueOf(text, 'rideway_outbox_backlog', { channel })).toBeGreaterThanOrEqual(0);
      expect(valueOf(text, 'rideway_outbox_backlog', { channel: 'push' })).toBeGreaterThanOrEqual(1);
      expect(valueOf(text, 'rideway_outbox_oldest_age_seconds', { channel: 'push' })).toBeGreaterThan(0);
      // The live layer: three drivers in the geo index, one socket following one user topic.
      expect(valueOf(text, 'rideway_geo_index_drivers', { index: 'memory' })).toBe(3);
      expect(valueOf(text, 'rideway_ws_connections')).toBe(1);
      expect(valueOf(text, 'rideway_ws_topics', { kind: 'user' })).toBe(1);
      expect(valueOf(text, 'rideway_ws_subscriptions')).toBe(1);
      // Payment news by provider and outcome; a replay counted as such, not as a second outcome.
      expect(valueOf(text, 'rideway_payment_confirmations_total', { provider: 'test', outcome: 'unknown_reference' })).toBe(1);
      expect(valueOf(text, 'rideway_payment_confirmations_total', { provider: 'test', outcome: 'replayed' })).toBe(1);
      // The process: memory, heap and event loop lag.
      expect(valueOf(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
      expect(valueOf(text, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
      expect(valueOf(text, 'rideway_metrics_source_errors_total')).toBeUndefined();

      // The socket closed: the next scrape says so.
      await live.close();
      await expect.poll(async () => valueOf(await scrape(), 'rideway_ws_connections')).toBe(0);
    });

    it('leaves a failing source out of the scrape instead of failing it', async () => {
      const geo = t.app.ctx.live.geo;
      const size = geo.size.bind(geo);
      geo.size = () => Promise.reject(new Error('index out of reach'));
      try {
        const text = await scrape();
        expect(valueOf(text, 'rideway_geo_index_drivers', { index: 'memory' })).toBeUndefined();
        expect(valueOf(text, 'rideway_metrics_source_errors_total', { source: 'geo' })).toBe(1);
        expect(valueOf(text, 'rideway_bookings_active', { status: 'ACCEPTED' })).toBe(1);
      } finally {
        geo.size = size;
      }
      expect(valueOf(await scrape(), 'rideway_geo_index_drivers', { index: 'memory' })).toBe(3);
    });
  });

  describe('with METRICS_PORT', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(engine, { ...UNSHED, METRICS_PORT: '0' });
      await t.app.ready();
    });
    afterAll(() => t.close());

    it('serves /metrics on its own loopback listener, and the main server has none', async () => {
      const url = t.app.metricsListenerUrl?.();
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
      const driver = await t.makeUser('driver', { carType: 'Sedan' });
      await t.goOnline(driver);
      const response = await fetch(url ?? '');
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      const text = await response.text();
      expect(valueOf(text, 'rideway_http_requests_total', { method: 'PATCH', route: '/api/driver/status', status_code: '200' })).toBe(1);
      expect(valueOf(text, 'rideway_geo_index_drivers', { index: 'memory' })).toBe(1);
      expect(valueOf(text, 'rideway_bookings_active', { status: 'NEW' })).toBe(0);
      // Only /metrics, only read.
      expect((await fetch((url ?? '').replace('/metrics', '/api/health'))).status).toBe(404);
      expect((await fetch(url ?? '', { method: 'POST' })).status).toBe(405);
      // The main server: no route, whatever the caller holds.
      for (const as of [null, driver]) expect((await t.request({ method: 'GET', url: '/metrics', as, headers: { authorization: `Bearer ${TOKEN}` } })).statusCode).toBe(404);
    });
  });

  describe('with METRICS_PORT and METRICS_TOKEN', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(engine, { ...UNSHED, METRICS_PORT: '0', METRICS_TOKEN: TOKEN });
      await t.app.ready();
    });

    it('asks for the token on the listener too, and lets the port go when the app closes', async () => {
      const url = t.app.metricsListenerUrl?.() ?? '';
      expect((await fetch(url)).status).toBe(401);
      expect((await fetch(url, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
      expect((await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
      await t.close();
      await expect(fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } })).rejects.toThrow();
    });
  });
});
