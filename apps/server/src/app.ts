import fastifyCookie from '@fastify/cookie';
import fastifySwagger from '@fastify/swagger';
import { openApiResponse } from '@rideway/contract';
import { LANGUAGE_COOKIE, showsHeroBookingForm } from '@rideway/domain';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyPluginCallback, type FastifyServerOptions } from 'fastify';
import { jsonSchemaTransform, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { AppContext } from './context';
import type { Db } from './db/client';
import { registerCsrfCheck } from './http/csrf';
import { errorHandler } from './http/errors';
import { responseSerializerCompiler } from './http/response-serializer';
import { registerSecurityHeaders, securityHeaders } from './http/security-policy';
import { registerRouteChecks, type RouteApp } from './http/routing';
import { registerActorHook } from './http/actor';
import { sessionCache } from './http/session-cache';
import { attachReadCache, CACHED_DATA, forgetCached, isCachedData } from './db/read-cache';
import { registerDrain } from './http/drain';
import { healthRoutes, registerLoadShedding } from './http/health';
import { registerNulGuard } from './http/nul-guard';
import { registerRateLimits } from './http/rate-limiting';
import { registerIdempotency, spendingKeys } from './http/idempotency';
import { auditRoutes } from './modules/audit/routes';
import { authRoutes } from './modules/auth/routes';
import { bookingRoutes, estimateRoutes } from './modules/bookings/routes';
import { mapsRoutes } from './modules/maps/routes';
import { cancelReasonRoutes } from './modules/cancelreasons/routes';
import { carTypeRoutes } from './modules/cartypes/routes';
import { compatRoutes } from './modules/compat/routes';
import { fileRoutes } from './modules/files/routes';
import { notificationRoutes } from './modules/notifications/routes';
import { outboxRoutes } from './modules/outbox/routes';
import { paymentRoutes } from './modules/payments/routes';
import { promoRoutes } from './modules/promos/routes';
import { reportRoutes } from './modules/reports/routes';
import { getSettings } from './modules/settings/service';
import { pageLanguage } from './modules/languages/service';
import { settingsRoutes } from './modules/settings/routes';
import { userRoutes } from './modules/users/routes';
import { walletRoutes } from './modules/wallet/routes';
import { withdrawRoutes } from './modules/withdraws/routes';
import { mapsFromConfig } from './providers/maps';
import type { MapsPort } from './providers/maps/port';
import { addExtraProviders } from './providers/payments/in-force';
import type { PaymentProviderPort } from './providers/payments/port';
import type { FileStorage } from './providers/storage';
import { statusPage } from './status-page';
import { landingData } from './http/landing-page';
import { registerWebApp } from './http/web-app';
import { startBackground } from './jobs/background';
import { chatRoutes } from './modules/chat/routes';
import { documentRoutes } from './modules/documents/routes';
import { vehicleRoutes } from './modules/vehicles/routes';
import { jobHandlers } from './job-handlers';
import { pushChannels } from './jobs/push-relay';
import { presenceRoutes } from './modules/presence/routes';
import { savedPlaceRoutes } from './modules/places/routes';
import { inboxRoutes } from './modules/inbox/routes';
import { pushRoutes } from './modules/push/routes';
import { flushPositions, warmIndex } from './modules/presence/service';
import { trackingRoutes } from './modules/tracking/routes';
import { etaRoutes } from './modules/eta/routes';
import { registerGateway, registerWebSocket } from './realtime/gateway';
import { registerMetrics } from './metrics/endpoint';
import { createLiveLayer } from './realtime/live';

declare module 'fastify' {
  interface FastifyInstance {
    /** The services' context, for tests and the process entry point. */
    ctx: AppContext;
  }
}


type AppOptions = {
  config: Config;
  db: Db;
  storage: FileStorage;
  /** The maps adapter; the one MAPS_PROVIDER selects by default. */
  maps?: MapsPort;
  /** Run the timers (job runner, event relay poll, position writes, silent-driver sweep); tests drive them by hand. */
  background?: boolean;
  now?: () => number;
  logger?: FastifyServerOptions['logger'];
  /** The process's own logger (main.ts, telemetry/logger.ts) instead of one made from `logger`. */
  loggerInstance?: FastifyBaseLogger;
  /** @fastify/otel's plugin when tracing is on (telemetry/tracing.ts): registered before any hook or route, so that all are traced. */
  tracing?: FastifyPluginCallback;
  /** Test-only: where the built web app is, instead of the web workspace's build. */
  webRoot?: string;
  /** Test-only: payment adapters added after the configured ones (an in-test fake of the payment port). */
  paymentProviders?: PaymentProviderPort[];
  /** Test-only: every answer is also encoded by zod, and a difference from the compiled serializer's is an error. */
  checkResponses?: boolean;
};

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const now = options.now ?? Date.now;
  const app = Fastify({
    ...(options.loggerInstance ? { loggerInstance: options.loggerInstance } : { logger: options.logger ?? { level: options.config.LOG_LEVEL } }),
    // Licence images arrive as data URLs inside JSON.
    bodyLimit: 8 * 1024 * 1024,
    trustProxy: options.config.TRUST_PROXY,
  });

  if (options.tracing) await app.register(options.tracing);
  registerRouteChecks(app);
  addExtraProviders(options.config, options.paymentProviders ?? []);

  const live = await createLiveLayer({ config: options.config, db: options.db, now, onError: (error) => { app.log.error({ err: error }, 'live layer error'); }, log: app.log });
  const ctx: AppContext = { db: spendingKeys(options.db), config: options.config, storage: options.storage, maps: options.maps ?? mapsFromConfig(options.config), now, live, log: app.log };
  // Redis lost: this process's own driver index starts from the database's online drivers (issue 23 point 4).
  live.seedFallbackWith((geo) => warmIndex({ ...ctx, live: { ...ctx.live, geo } }));
  app.decorate('ctx', ctx);

  registerSecurityHeaders(app, securityHeaders(options.config));
  await app.register(fastifyCookie);
  // Route schemas come from packages/contract: Fastify validates requests with them (the error
  // handler turns an issue into the spec's key) and serializes responses through them, compiled,
  // so nothing undocumented leaves.
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler({ check: options.checkResponses === true }));
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Rideway API', version: '0.1.0', description: 'Taxi and parcel-delivery platform. Errors: {"error": {"code", "message"}} with the spec key as code.' },
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer' },
          cookieAuth: { type: 'apiKey', in: 'cookie', name: 'rideway_session' },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await registerWebSocket(app);
  await registerLoadShedding(app, options.config);
  await registerRateLimits(app, options.config);
  const sessions = sessionCache({ healthy: () => ctx.live.bus.healthy() });
  ctx.live.bus.onSessionsEnded((ended) => { sessions.dropUser(ended.uid); });
  // Read-mostly data and sessions (issue 21, point 1): changes announced by other processes are
  // forgotten here; when the bus comes back after an outage, everything is, since announcements
  // may have been lost meanwhile.
  ctx.live.bus.onChangesAnnounced((data) => { forgetCached(data.filter(isCachedData)); });
  ctx.live.bus.onHealthChange(() => {
    forgetCached(CACHED_DATA);
    sessions.clear();
  });
  const detachReadCache = attachReadCache(options.db, { announce: (data) => ctx.live.bus.announceChanges(data).catch((error: unknown) => { app.log.error({ err: error }, 'a change of cached data could not be announced to the other processes'); }) }, () => ctx.live.bus.healthy());
  registerCsrfCheck(app, options.config);
  registerActorHook(app, ctx, sessions);
  registerNulGuard(app);
  registerDrain(app);
  registerIdempotency(app, ctx);

  app.setErrorHandler(errorHandler);
  const routes: RouteApp = app.withTypeProvider<ZodTypeProvider>();
  await registerWebApp(
    routes,
    async () => statusPage((await getSettings(ctx.db)).appName, Math.round(process.uptime())),
    options.webRoot,
    // Issue 21 point 5: the landing page arrives drawn, in the visitor's language (the app's cookie), for
    // those who get the booking form on it (section 2); the others' hero differs, so they get the plain page.
    // Its header is drawn with the public settings and the languages on offer, read here beside the page's language.
    async (request) =>
      showsHeroBookingForm(request.actor?.usertype ?? null)
        ? { view: { language: await pageLanguage(ctx.db, request.cookies[LANGUAGE_COOKIE]), signedIn: request.actor !== null }, data: await landingData(ctx.db) }
        : null,
  );

  healthRoutes(routes, ctx);
  routes.get('/api/openapi.json', { config: { access: 'public' }, schema: { summary: 'This API document', response: { 200: openApiResponse } } }, () => app.swagger() as { openapi: string });

  // API answers hold one user's data: no cache (a browser's, a proxy's) keeps them, unless a
  // route says otherwise (uploaded files).
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control')) void reply.header('cache-control', 'no-store');
    done(null, payload);
  });

  // A change that committed may have written events: they leave now rather than at the next poll.
  // A refused request wrote nothing (its transaction rolled back): the relay is not asked to look,
  // and the background's poll finds anything an error left after a commit.
  app.addHook('onResponse', (request, reply, done) => {
    const { writesEvents, relaysItself } = request.routeOptions.config;
    const quiet = writesEvents === false || relaysItself === true || reply.statusCode >= 400;
    if (request.method !== 'GET' && request.method !== 'HEAD' && !quiet) ctx.live.relay.kick();
    done();
  });
  registerGateway(app, ctx);
  registerMetrics(app, ctx);

  for (const register of [savedPlaceRoutes, pushRoutes, inboxRoutes, presenceRoutes, chatRoutes, trackingRoutes, etaRoutes, authRoutes, userRoutes, settingsRoutes, carTypeRoutes, cancelReasonRoutes, promoRoutes, notificationRoutes, walletRoutes, withdrawRoutes, documentRoutes, vehicleRoutes, outboxRoutes, auditRoutes, fileRoutes, compatRoutes, mapsRoutes, estimateRoutes, bookingRoutes, reportRoutes]) {
    register(routes, ctx);
  }
  await paymentRoutes(routes, ctx);

  if (ctx.live.geo.kind === 'memory') await warmIndex(ctx);
  const push = options.background === false ? undefined : await pushChannels(ctx, app.log);
  const timers = push ? startBackground(ctx, jobHandlers(ctx), push, (error) => { app.log.error({ err: error }, 'background work failed'); }) : [];
  app.addHook('onClose', async () => {
    detachReadCache();
    sessions.close();
    for (const timer of timers) clearInterval(timer);
    await push?.fcm?.close();
    await flushPositions(ctx);
    await ctx.live.close();
  });
  return app;
}
