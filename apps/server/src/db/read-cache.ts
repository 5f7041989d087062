/**
 * Read-mostly data held in the process (issue 21, point 1): the settings, car types, cancel
 * reasons and languages change a few times a year and are read by most requests. A read answers
 * from memory until the data changes; every write path calls `dataChanged`, which forgets the
 * data here at once and tells the other processes through the event bus (they forget it when the
 * event arrives). While a process's bus is not healthy (Redis unreachable, subscription not yet
 * restored) its reads go to the database: a change made elsewhere could not reach it.
 *
 * What is never cached, and why:
 * - reads made with a transaction: a transaction that wrote the data must read its own,
 *   uncommitted value, and a value read inside a transaction must not outlive a rollback;
 * - a value whose read began before a change was announced (the generation moved on while it was
 *   read): it could be the value from before the change.
 */
import { PgTransaction } from 'drizzle-orm/pg-core';
import type { Db, Tx } from './client';

export const CACHED_DATA = ['settings', 'carTypes', 'cancelReasons', 'languages'] as const;
export type CachedData = (typeof CACHED_DATA)[number];

export const isCachedData = (value: unknown): value is CachedData => typeof value === 'string' && (CACHED_DATA as readonly string[]).includes(value);

/**
 * A backstop only: an announcement lost between two healthy buses (a publish that failed while
 * the subscriber stayed up) is forgotten after this long. Changes are normally seen at once.
 */
const MAX_AGE_MS = 60_000;

/** Where a change is announced to the other processes; the bus of each app that uses a database. */
export type ChangeAnnouncer = { announce: (data: CachedData[]) => Promise<void> };

type Entry = { value: unknown; generation: number; at: number };

/** Moves on at every change of the data, in this process or announced by another. */
const generations = new Map<CachedData, number>(CACHED_DATA.map((data) => [data, 0]));
/** By database client (the pg pool or the PGlite instance), so apps on different databases in one process never share. */
const caches = new WeakMap<object, Map<CachedData, Entry>>();
/** By database client: whether the caches may be used now (the bus of the app on it is healthy). */
const guards = new WeakMap<object, () => boolean>();
const announcers = new Set<ChangeAnnouncer>();
/**
 * Data written inside a transaction whose commit has not been announced yet: not cached meanwhile,
 * so a value read before the commit is never kept after it, even if a writer forgets to announce.
 */
const pending = new Set<CachedData>();

const generationOf = (data: CachedData): number => generations.get(data) ?? 0;

/** The database client behind a Db (also behind the idempotency proxy), or undefined for a transaction. */
function clientOf(db: Db | Tx): object | undefined {
  if (db instanceof PgTransaction) return undefined;
  const client: unknown = (db as { $client?: unknown }).$client;
  return typeof client === 'object' && client !== null ? client : undefined;
}

/**
 * The data from memory while it has not changed, else from `load` (kept for the next reads).
 * Callers get the cached value itself: they copy what they hand out for changing.
 */
export async function readThrough<T>(db: Db | Tx, data: CachedData, load: () => Promise<T>): Promise<T> {
  const client = clientOf(db);
  if (client === undefined || pending.has(data) || guards.get(client)?.() === false) return load();
  let entries = caches.get(client);
  if (!entries) {
    entries = new Map();
    caches.set(client, entries);
  }
  const generation = generationOf(data);
  const entry = entries.get(data);
  const now = Date.now();
  if (entry && entry.generation === generation && now - entry.at < MAX_AGE_MS) return entry.value as T;
  const value = await load();
  // Kept only if nothing changed while it was read, and the bus is still healthy.
  if (generationOf(data) === generation && !pending.has(data) && guards.get(client)?.() !== false) entries.set(data, { value, generation, at: now });
  return value;
}

/** Forgets the data in this process only: what an announcement from another process does. */
export function forgetCached(data: readonly CachedData[]): void {
  for (const one of data) generations.set(one, generationOf(one) + 1);
}

/**
 * A write made with `db` changed the data. Outside a transaction: forgotten here at once and
 * announced to the other processes. Inside one: forgotten, and not cached again until the writer
 * calls `dataChanged()` (without a transaction) once the transaction is over, committed or not.
 * Never throws: an announcement that fails is reported by the bus, and the backstop age bounds it.
 */
export async function dataWritten(db: Db | Tx, ...data: CachedData[]): Promise<void> {
  if (db instanceof PgTransaction) {
    for (const one of data) pending.add(one);
    forgetCached(data);
    return;
  }
  await dataChanged(...data);
}

/** The data changed and the change is over (committed or rolled back): forgotten here and announced. */
export async function dataChanged(...data: CachedData[]): Promise<void> {
  for (const one of data) pending.delete(one);
  forgetCached(data);
  await Promise.all([...announcers].map((announcer) => announcer.announce(data).catch(() => undefined)));
}

/**
 * An app serves from this database: its bus carries the changes to and from other processes, and
 * while the bus is not healthy the caches are off. Answers the detach function (app close).
 */
export function attachReadCache(db: Db, announcer: ChangeAnnouncer, healthy: () => boolean): () => void {
  const client = clientOf(db);
  announcers.add(announcer);
  if (client !== undefined) guards.set(client, healthy);
  return () => {
    announcers.delete(announcer);
    if (client !== undefined && guards.get(client) === healthy) guards.delete(client);
  };
}
