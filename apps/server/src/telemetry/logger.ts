/**
 * The process's one logger (issue 23 point 2): every line the server prints is a JSON object
 * written by pino, the logger Fastify is built on. main.ts makes it before anything else, so a
 * configuration that does not parse, a refusal to start, a lost database connection and a crash
 * are JSON lines too; buildApp gives it to Fastify (`loggerInstance`), whose request logs add the
 * request's id (`reqId`). With tracing on, each line also carries the active span's `trace_id`
 * and `span_id` (the names of OpenTelemetry's log data model), so a line leads to its trace.
 */
import pino, { type Logger } from 'pino';

/** What a log line adds from the active span: `{ trace_id, span_id }`, or nothing outside a trace. */
export type TraceFields = () => Record<string, string>;

const LEVELS = new Set(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);

/**
 * The logger, to stdout, at `level` (LOG_LEVEL before the configuration is parsed: `info` when it
 * is not a level). `joinTraces` hands it the tracing's fields once tracing has started.
 */
export function createLogger(level: string | undefined): { log: Logger; joinTraces: (fields: TraceFields) => void } {
  let traceFields: TraceFields | undefined;
  const log = pino({
    level: level !== undefined && LEVELS.has(level) ? level : 'info',
    mixin: () => traceFields?.() ?? {},
  });
  return {
    log,
    joinTraces: (fields) => {
      traceFields = fields;
    },
  };
}

/**
 * The process will not start: why, as one JSON line on stderr at any LOG_LEVEL (it is the
 * process's exit reason, as a crash's would be), then exit 1. `details` are its fields
 * (`problems`: the variables and what is wrong with them, never their values).
 */
export function refuseToStart(message: string, details: Record<string, unknown> = {}): never {
  pino({ level: 'fatal' }, pino.destination({ dest: 2, sync: true })).fatal(details, message);
  process.exit(1);
}

/**
 * What Node itself would print as text goes through the logger instead: a warning (a deprecation,
 * too many listeners) as a `warn` line, and an exception nothing caught (a rejection included) as
 * a `fatal` line before the process exits 1, as Node's own handling would.
 */
export function logProcessEvents(log: Logger): void {
  process.removeAllListeners('warning');
  process.on('warning', (warning) => {
    log.warn({ err: warning }, `node: ${warning.message}`);
  });
  process.on('uncaughtException', (error, origin) => {
    log.fatal({ err: error, origin }, 'uncaught exception: exiting');
    process.exit(1);
  });
}

