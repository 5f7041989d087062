import { join } from 'node:path';
import { buildApp } from './app';
import { configProblems, loadConfig } from './config';
import { openDatabase } from './db/client';
import { relayMail } from './jobs/mail-relay';
import { diskStorage } from './providers/storage';
import { s3StorageFromConfig } from './providers/storage-s3';
import { keepDemoDriversOnline } from './seed/demo-presence';
import { prepareDatabase } from './seed/prepare';

const config = loadConfig();
// What the configuration lacks for what it turns on (issue 23 point 3): an error stops the start
// here, with every problem named, before anything is opened.
const problems = configProblems(config);
const refusals = problems.filter((problem) => problem.severity === 'error');
if (refusals.length > 0) {
  console.error(['Rideway cannot start with this configuration (npm run check-config tells the same):', ...refusals.map(({ variable, problem }) => `  ${variable}: ${problem}`)].join('\n'));
  process.exit(1);
}
const database = await openDatabase({
  databaseUrl: config.DATABASE_URL,
  dataDir: config.DATA_DIR,
  connectTimeoutMs: config.DB_CONNECT_TIMEOUT_MS,
  onIdleError: (error) => {
    console.error(`database connection lost: ${error.message}`);
  },
});
// Files on S3 when S3_BUCKET is set, so several servers share them (issue 23 point 7); the SDK
// loads only then.
const storage = config.S3_BUCKET
  ? await s3StorageFromConfig(config, (message) => {
      console.warn(message);
    })
  : diskStorage(join(config.DATA_DIR, 'files'));
const demoLogins = await prepareDatabase(database.db, config, Date.now(), storage);
const app = await buildApp({ config, db: database.db, storage });
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
    // flight; then the database's connections end.
    await app.close();
    transport?.close();
    await database.close();
  } catch (error) {
    app.log.error({ err: error }, 'shutdown failed');
    process.exit(1);
  }
  process.exit(0);
}
process.once('SIGTERM', () => void shutdown('SIGTERM'));
process.once('SIGINT', () => void shutdown('SIGINT'));

try {
  const address = await app.listen({ port: config.PORT, host: config.HOST });
  const lines = [`Rideway is running at ${config.PUBLIC_URL ?? address} (${database.engine})`];
  if (demoLogins.length > 0) {
    lines.push('', 'Demo logins (password for all: demo123):');
    for (const login of demoLogins) lines.push(`  ${login.role.padEnd(11)} ${login.email}`);
  }
  console.log(`\n${lines.join('\n')}\n`);
} catch (error) {
  app.log.fatal({ err: error }, 'could not start');
  process.exit(1);
}
