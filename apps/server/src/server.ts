import { join } from 'node:path';
import type { Logger } from 'pino';
import { buildApp } from './app';
import type { Config, ConfigProblem } from './config';
import { openDatabase } from './db/client';
import { relayMail } from './jobs/mail-relay';
import { diskStorage } from './providers/storage';
import { s3StorageFromConfig } from './providers/storage-s3';
import { keepDemoDriversOnline } from './seed/demo-presence';
import { prepareDatabase } from './seed/prepare';
import type { Tracing } from './telemetry/tracing';

/** How long a shutdown waits for the collector to take the last spans, at most (a third of SHUTDOWN_GRACE_MS when that is shorter). */
const TRACE_FLUSH_MS = 3000;

/**
 * The server process once main.ts has its configuration, its logger and, when configured, its
 * tracing: opens the database, builds the app, listens, and shuts down gracefully on SIGTERM.
 */
export async function startServer({ config, problems, log, tracing }: { config: Config; problems: ConfigProblem[]; log: Logger; tracing: Tracing | undefined }): Promise<void> {
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    connectTimeoutMs: config.DB_CONNECT_TIMEOUT_MS,
    onIdleError: (error) => {
      log.error({ err: error }, 'database connection lost');
    },
  });
  // Files on S3 when S3_BUCKET is set, so several servers share them (issue 23 point 7); the SDK
  // loads only then.
  const storage = config.S3_BUCKET
    ? await s3StorageFromConfig(config, (message) => {
        log.warn(message);
      })
    : diskStorage(join(config.DATA_DIR, 'files'));
  const demoLogins = await prepareDatabase(database.db, config, Date.now(), storage);
  const app = await buildApp({ config, db: database.db, storage, loggerInstance: log, ...(tracing ? { tracing: tracing.fastifyPlugin } : {}) });
  for (const { variable, problem } of problems.filter((found) => found.severity === 'warning')) app.log.warn({ variable }, `configuration: ${problem}`);

  // With SMTP configured, mail leaves the outbox every few seconds; without, admins read it there.
  // Loaded only when configured: an SDK not in use costs no memory (issue 21 point 4).
  const transport = config.SMTP_URL ? (await import('./providers/mail')).smtpTransport(config.SMTP_URL, config.MAIL_FROM) : undefined;
  const relay = transport
    ? setInterval(() => {
        relayMail(database.db, transport, Date.now()).catch((error: unknown) => {
          app.log.error({ err: error }, 'mail relay failed');
        });
      }, 5000)
    : undefined;

  // Demo drivers stay online without an app reporting for them (DEMO_DATA only).
  const demoPresence = config.DEMO_DATA
    ? setInterval(() => {
        keepDemoDriversOnline(app.ctx).catch((error: unknown) => {
          app.log.error({ err: error }, 'demo presence failed');
        });
      }, 60_000)
    : undefined;
  if (config.DEMO_DATA) await keepDemoDriversOnline(app.ctx);

  let closing = false;
  async function shutdown(signal: string): Promise<void> {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // A bound on the whole: a database or Redis that no longer answers must not keep the process
    // serving half-closed (issue 21 point 3).
    setTimeout(() => {
      app.log.error({ graceMs: config.SHUTDOWN_GRACE_MS }, 'shutdown did not finish in time; exiting');
      process.exit(1);
    }, config.SHUTDOWN_GRACE_MS).unref();
    clearInterval(relay);
    clearInterval(demoPresence);
    try {
      // Fastify stops accepting connections, closes the WebSockets (1001) and waits for requests in
      // flight; then the database's connections end, and the last spans leave.
      await app.close();
      transport?.close();
      await database.close();
      await tracing?.shutdown(Math.min(TRACE_FLUSH_MS, config.SHUTDOWN_GRACE_MS / 3));
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
    app.log.info('shut down');
    process.exit(0);
  }
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));

  // A port that is taken fails here, and main.ts says so.
  const address = await app.listen({ port: config.PORT, host: config.HOST });
  const url = config.PUBLIC_URL ?? address;
  app.log.info({ url, database: database.engine, demoLogins }, 'Rideway is running');
  // The same for a person: at a terminal, and whenever the database holds the demo's published
  // logins (a laptop's `npm start`, never production), whose first screen is this list.
  if (process.stdout.isTTY || demoLogins.length > 0) {
    const lines = [`Rideway is running at ${url} (${database.engine})`];
    if (demoLogins.length > 0) {
      lines.push('', 'Demo logins (password for all: demo123):');
      for (const login of demoLogins) lines.push(`  ${login.role.padEnd(11)} ${login.email}`);
    }
    process.stdout.write(`\n${lines.join('\n')}\n\n`);
  }
}
