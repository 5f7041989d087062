import { buildApp } from './app';
import { loadConfig } from './config';

const config = loadConfig();
const app = buildApp({ config });

let closing = false;
async function shutdown(signal: string): Promise<void> {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down');
  // Fastify stops accepting connections and waits for requests in flight before closing.
  await app.close();
  process.exit(0);
}
process.once('SIGTERM', () => void shutdown('SIGTERM'));
process.once('SIGINT', () => void shutdown('SIGINT'));

try {
  const address = await app.listen({ port: config.PORT, host: config.HOST });
  console.log(`\nRideway is running at ${config.PUBLIC_URL ?? address}\n`);
} catch (error) {
  app.log.fatal({ err: error }, 'could not start');
  process.exit(1);
}
