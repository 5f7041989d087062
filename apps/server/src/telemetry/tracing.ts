/**
 * OpenTelemetry traces (issue 23 point 2), sent to an OTLP/HTTP collector as JSON. main.ts imports
 * this file only when OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set:
 * without it no OpenTelemetry module is loaded, nor any module wrapped (issue 21, memory).
 *
 * What a trace holds: a request's SERVER span (http instrumentation), named `POST /api/bookings`
 * once @fastify/otel has matched the route, with Fastify's hooks and handler under it; every
 * PostgreSQL query (pg, pg-pool) and Redis command (ioredis) made for it; the outgoing http(s)
 * calls it makes (those through fetch are not: undici is not instrumented). Work outside a request (the job runner's polls, the Redis bus) starts no trace of
 * its own, and health checks and /metrics are not traced: probes every few seconds would bury the
 * requests people make.
 *
 * The SDK reads the standard variables itself: the endpoint, OTEL_EXPORTER_OTLP_HEADERS (a
 * collector's or vendor's credentials), OTEL_EXPORTER_OTLP_TIMEOUT, OTEL_SERVICE_NAME (`rideway`
 * when unset) and OTEL_RESOURCE_ATTRIBUTES, OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG, and
 * OTEL_BSP_* (the batches' size and delay). A collector that fails or hangs costs requests nothing:
 * spans wait in a bounded queue, are sent in the background and dropped when it is full.
 *
 * Modules are hooked as they load, so this runs before the server's modules are imported. They are
 * ES modules, and an ES module's imports (pg, ioredis, node:http) never pass through `require`, where
 * require-in-the-middle looks: import-in-the-middle's loader hook, registered here with
 * `module.register` and limited to the instrumented modules, wraps them as they are imported.
 */
import { register } from 'node:module';
import { format } from 'node:util';
import { FastifyOtelInstrumentation } from '@fastify/otel';
import { diag, DiagLogLevel, trace, type DiagLogger } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { defaultResource, detectResources, envDetector, hostDetector, processDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import type { FastifyPluginCallback } from 'fastify';
import type { Logger } from 'pino';
import type { TraceFields } from './logger';

export type Tracing = {
  /** @fastify/otel's plugin, registered by buildApp before any route. */
  fastifyPlugin: FastifyPluginCallback;
  /** The active span's ids for a log line. */
  logFields: TraceFields;
  /** Sends the spans still queued, giving up after `timeoutMs` (a collector that hangs must not hold a shutdown). */
  shutdown: (timeoutMs: number) => Promise<void>;
};

/** Requests that are not traced: load balancers' and orchestrators' probes, and the metrics scraper. */
const isProbe = (url: string): boolean => /^\/api\/health(\/|\?|$)/.test(url) || /^\/metrics(\?|$)/.test(url);

const DIAG_LEVELS: Record<string, DiagLogLevel> = { NONE: DiagLogLevel.NONE, ERROR: DiagLogLevel.ERROR, WARN: DiagLogLevel.WARN, INFO: DiagLogLevel.INFO, DEBUG: DiagLogLevel.DEBUG, VERBOSE: DiagLogLevel.VERBOSE, ALL: DiagLogLevel.ALL };

/** An error the SDK hands over as its JSON text (a failed export does), or undefined. */
function errorIn(message: string): { message: string } | undefined {
  if (!message.startsWith('{')) return undefined;
  try {
    const parsed: unknown = JSON.parse(message);
    return typeof parsed === 'object' && parsed !== null && 'message' in parsed && typeof parsed.message === 'string' ? (parsed as { message: string }) : undefined;
  } catch {
    return undefined;
  }
}

/** The SDK's own messages (a failed export, a bad sampler setting) as JSON lines of the server's logger, at OTEL_LOG_LEVEL (warn by default). */
function diagnostics(log: Logger): void {
  const otel = log.child({ component: 'opentelemetry' });
  const line = (level: 'error' | 'warn' | 'info' | 'debug' | 'trace') => (message: string, ...args: unknown[]) => {
    const error = errorIn(message);
    if (error) otel[level]({ err: error }, `tracing: ${error.message}`);
    else otel[level](`tracing: ${format(message, ...args)}`);
  };
  const logger: DiagLogger = { error: line('error'), warn: line('warn'), info: line('info'), debug: line('debug'), verbose: line('trace') };
  diag.setLogger(logger, { logLevel: DIAG_LEVELS[(process.env.OTEL_LOG_LEVEL ?? '').toUpperCase()] ?? DiagLogLevel.WARN, suppressOverrideMessage: true });
}

export function startTracing(log: Logger): Tracing {
  diagnostics(log);
  // Only inside a trace: a query, command or call made by background work would otherwise be a trace of one span, every poll.
  const instrumentations = [
    new HttpInstrumentation({ ignoreIncomingRequestHook: (request) => isProbe(request.url ?? ''), requireParentforOutgoingSpans: true }),
    new PgInstrumentation({ requireParentSpan: true }),
    new IORedisInstrumentation({ requireParentSpan: true }),
  ];
  // The loader wraps only the modules these instrumentations patch (pg, pg-pool, ioredis, http, https).
  const include = instrumentations.flatMap((instrumentation) => instrumentation.getModuleDefinitions().map((definition) => definition.name));
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url, { data: { include } });

  const resource = defaultResource()
    .merge(resourceFromAttributes({ [ATTR_SERVICE_NAME]: 'rideway' }))
    .merge(detectResources({ detectors: [hostDetector, processDetector, envDetector] }));
  const provider = new NodeTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())] });
  // Also the context manager (AsyncLocalStorage) and the W3C trace-context propagator: a caller's `traceparent` continues its trace.
  provider.register();
  // A request's span and its handler's; no span per hook (a dozen a request, named after the plugin chain): what a hook does shows as
  // its queries and commands under the request's span.
  const fastifyOtel = new FastifyOtelInstrumentation({
    ignorePaths: (route) => isProbe(route.url),
    instrumentHooks: false,
    lifecycleHook: (span, { hookName, request }) => {
      span.updateName(`${hookName} ${request.routeOptions.url ?? request.url}`);
    },
  });
  registerInstrumentations({ tracerProvider: provider, instrumentations: [...instrumentations, fastifyOtel] });
  log.info('tracing: OpenTelemetry spans are sent to the OTLP/HTTP collector');

  return {
    fastifyPlugin: fastifyOtel.plugin(),
    logFields: (): Record<string, string> => {
      const span = trace.getActiveSpan()?.spanContext();
      return span ? { trace_id: span.traceId, span_id: span.spanId } : {};
    },
    shutdown: async (timeoutMs) => {
      let timer: NodeJS.Timeout | undefined;
      const gaveUp = new Promise<'late'>((resolve) => { timer = setTimeout(() => { resolve('late'); }, timeoutMs); });
      const outcome = await Promise.race([provider.shutdown().then(() => 'sent' as const, (error: unknown) => error), gaveUp]);
      clearTimeout(timer);
      if (outcome === 'late') log.warn({ timeoutMs }, 'tracing: the collector did not take the last spans in time; they are dropped');
      else if (outcome !== 'sent') log.warn({ err: outcome }, 'tracing: the last spans could not be sent');
    },
  };
}
