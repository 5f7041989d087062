import type { FastifyInstance } from 'fastify';
import type { Connection } from './connection';

/**
 * Pings every connection each interval and drops one that did not answer the previous ping: a
 * client gone without closing (a phone out of coverage) leaves no subscriptions behind.
 */
export function startHeartbeat(app: FastifyInstance, connections: () => Iterable<Connection>, intervalS: number): void {
  const heartbeat = setInterval(() => {
    for (const connection of connections()) {
      if (!connection.alive) {
        connection.socket.terminate();
        continue;
      }
      connection.alive = false;
      connection.socket.ping();
    }
  }, intervalS * 1000);
  heartbeat.unref();
  app.addHook('preClose', (done) => {
    clearInterval(heartbeat);
    for (const connection of connections()) connection.socket.close(1001, 'server shutting down');
    done();
  });
}
