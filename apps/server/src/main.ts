/**
 * The server process's entry point (`node dist/main.js`), in three steps, each needing the one before:
 * 1. the logger, so that everything the process prints, a refusal to start included, is a JSON
 *    line (issue 23 point 2, telemetry/logger.ts);
 * 2. tracing, only when an OTLP endpoint is set: it hooks pg, ioredis and http, which must happen
 *    before those modules load (telemetry/tracing.ts), and without it nothing of it loads;
 * 3. the server (server.ts), imported only now, so that its modules load after the hooks.
 * This file and what it imports statically (the configuration, pino) load none of those modules.
 */
import { configProblems, isTracingOn, loadConfig, type Config } from './config';
import { createLogger, logProcessEvents, refuseToStart } from './telemetry/logger';

const { log, joinTraces } = createLogger(process.env.LOG_LEVEL);
logProcessEvents(log);

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  refuseToStart(error instanceof Error ? error.message : String(error));
}
// What the configuration lacks for what it turns on (issue 23 point 3): an error stops the start
// here, with every problem named, before anything is opened.
const problems = configProblems(config);
const refusals = problems.filter((problem) => problem.severity === 'error');
if (refusals.length > 0) {
  const named = refusals.map(({ variable, problem }) => `${variable}: ${problem}`).join('; ');
  refuseToStart(`Rideway cannot start with this configuration (npm run check-config tells the same): ${named}`, { problems: refusals.map(({ variable, problem }) => ({ variable, problem })) });
}
log.level = config.LOG_LEVEL;

const tracing = isTracingOn(config) ? (await import('./telemetry/tracing')).startTracing(log) : undefined;
if (tracing) joinTraces(tracing.logFields);

const { startServer } = await import('./server');
try {
  await startServer({ config, problems, log, tracing });
} catch (error) {
  // The database cannot be reached or migrated, a port is taken: said once, as a JSON line.
  log.fatal({ err: error }, 'could not start');
  process.exit(1);
}
