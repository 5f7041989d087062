import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import type { Db } from './db/client';
import type { MapsPort } from './providers/maps/port';
import type { FileStorage } from './providers/storage';
import type { LiveLayer } from './realtime/live';
import type { MetricsRecorder } from './metrics/recorder';

/** What every service gets: the database, the configuration, the clock and the ports. */
export type AppContext = {
  db: Db;
  config: Config;
  /** Epoch ms; tests move it. */
  now: () => number;
  storage: FileStorage;
  maps: MapsPort;
  live: LiveLayer;
  /** The server's log, for work that degrades instead of failing (a maps provider down during dispatch). */
  log: FastifyBaseLogger;
  /** Counters of what happens (issue 23 point 2); undefined when the operator turned metrics off. */
  metrics?: MetricsRecorder;
};
