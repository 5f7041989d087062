/**
 * Security-critical: a socket lives no longer than the session it was opened with. A logout, a
 * password reset, a deleted account, a withdrawn approval or a changed email or mobile ends
 * sessions; the bus tells every process, and each closes the sockets opened with them at once.
 * A sweep closes, after at most one interval, what a lost notice left open (a Redis reconnect
 * drops pub/sub messages) and sockets whose session expired.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { validSessions } from '../modules/accounts/sessions';
import type { SessionsEnded } from './bus';
import type { Connection } from './connection';
import type { Subscriptions } from './subscriptions';

/** How the server closes a socket whose session ended; the client signs in again. */
export const SESSION_ENDED_CLOSE = { code: 4401, reason: 'not_logged_in' } as const;

/** Sessions checked per database read by the sweep. */
const SWEEP_BATCH = 500;

/** A process's open connections, by user. */
export type ConnectionIndex = {
  add(connection: Connection): void;
  remove(connection: Connection): void;
  all(): IterableIterator<Connection>;
  readonly size: number;
  /** How many connections the user holds open on this process. */
  countOf(uid: string): number;
  /** Closes the connections of the ended sessions; answers how many. */
  end(ended: SessionsEnded): number;
  /** Closes the connections whose session is not among these (token hashes). */
  keepOnly(valid: ReadonlySet<string>, sessions: readonly string[]): number;
};

const matches = (connection: Connection, ended: SessionsEnded): boolean =>
  connection.actor.uid === ended.uid &&
  (ended.only === undefined || connection.session === ended.only) &&
  (ended.except === undefined || connection.session !== ended.except);

export function connectionIndex(subscriptions: Subscriptions): ConnectionIndex {
  const connections = new Set<Connection>();
  const byUser = new Map<string, Set<Connection>>();

  const remove = (connection: Connection) => {
    connections.delete(connection);
    const own = byUser.get(connection.actor.uid);
    own?.delete(connection);
    if (own?.size === 0) byUser.delete(connection.actor.uid);
  };
  /** Stops every delivery at once, then closes: nothing reaches the socket after its session ended. */
  const close = (connection: Connection) => {
    remove(connection);
    subscriptions.unfollowAll(connection);
    connection.socket.close(SESSION_ENDED_CLOSE.code, SESSION_ENDED_CLOSE.reason);
  };

  return {
    add(connection) {
      connections.add(connection);
      let own = byUser.get(connection.actor.uid);
      if (!own) {
        own = new Set();
        byUser.set(connection.actor.uid, own);
      }
      own.add(connection);
    },
    remove,
    all: () => connections.values(),
    get size() {
      return connections.size;
    },
    countOf: (uid) => byUser.get(uid)?.size ?? 0,
    end(ended) {
      const closing = [...(byUser.get(ended.uid) ?? [])].filter((connection) => matches(connection, ended));
      for (const connection of closing) close(connection);
      return closing.length;
    },
    keepOnly(valid, checked) {
      const gone = new Set(checked.filter((session) => !valid.has(session)));
      if (gone.size === 0) return 0;
      const closing = [...connections].filter((connection) => gone.has(connection.session));
      for (const connection of closing) close(connection);
      return closing.length;
    },
  };
}

/** One pass of the sweep: every open connection's session is read back, a few hundred at a time. */
export async function sweepSessions(ctx: AppContext, index: ConnectionIndex): Promise<number> {
  const sessions = [...new Set([...index.all()].map((connection) => connection.session))];
  let closed = 0;
  for (let start = 0; start < sessions.length; start += SWEEP_BATCH) {
    const batch = sessions.slice(start, start + SWEEP_BATCH);
    closed += index.keepOnly(await validSessions(ctx.db, batch, ctx.now()), batch);
  }
  return closed;
}

/** Listens for ended sessions on the bus, and sweeps every interval. */
export function watchSessions(app: FastifyInstance, ctx: AppContext, index: ConnectionIndex, intervalS: number): void {
  ctx.live.bus.onSessionsEnded((ended) => {
    index.end(ended);
  });
  let sweeping = false;
  const sweep = setInterval(() => {
    if (sweeping || index.size === 0) return;
    sweeping = true;
    sweepSessions(ctx, index)
      .catch((error: unknown) => {
        app.log.error({ err: error }, 'websocket session sweep failed');
      })
      .finally(() => {
        sweeping = false;
      });
  }, intervalS * 1000);
  sweep.unref();
  app.addHook('preClose', (done) => {
    clearInterval(sweep);
    done();
  });
}
