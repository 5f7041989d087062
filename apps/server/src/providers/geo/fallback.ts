import { memoryGeoIndex } from './memory';
import type { DriverPresence, GeoIndex } from './port';

/** The shared index's connection as the fallback sees it (realtime/redis-link.ts). */
export type GeoUpstream = {
  isUp(): boolean;
  /** An operation was served here; with the error that made it so, the upstream is down from now on. */
  fellBack(operation: 'geo_write' | 'geo_read', error?: unknown): void;
  onChange(handler: (up: boolean) => void): void;
};

/** Fills the process's own index from the database (drivers online, their last stored positions). */
export type GeoSeed = (into: GeoIndex) => Promise<unknown>;

export type FallbackGeoIndex = GeoIndex & {
  /** What fills the own index when Redis is lost, and again every reseedMs while it stays lost. */
  seedWith(seed: GeoSeed): void;
  /** Whether requests are served by the own index now. */
  isFallingBack(): boolean;
  /** Settles once the own index's changes have been written back to the shared one (tests). */
  recovered(): Promise<void>;
};

/** While Redis stays lost, how often the own index is filled again from the database (positions are written there every 2 s). */
const RESEED_MS = 5000;

/**
 * Issue 23 point 4: the live driver index survives a lost Redis. The shared index (Redis) answers
 * while it is reachable; once a call fails, or the connection is down, this process serves every
 * call from its own in-memory index, filled from the database (every online driver's last stored
 * position, refreshed every few seconds) and kept up to date by the reports this process receives.
 * Book-now still finds drivers: those reporting here at their newest position, the others at the
 * one last written to the database; dispatch confirms each in the database anyway.
 *
 * When Redis returns, the drivers this process changed meanwhile are written back before the
 * shared index serves again. Written back rather than left to refill from the next reports: a
 * report only moves a driver Redis already holds, so without it a driver who went offline, took a
 * trip or changed car type during the outage would keep the shared index's old availability until
 * a later change. A driver another process has heard of more recently (a newer `at` in Redis) is
 * left as Redis holds it.
 */
export function fallbackGeoIndex(options: { primary: GeoIndex; upstream: GeoUpstream; onError: (error: unknown) => void; reseedMs?: number }): FallbackGeoIndex {
  const { primary, upstream, onError } = options;
  const reseedMs = options.reseedMs ?? RESEED_MS;
  const local = memoryGeoIndex();
  /** Drivers changed in the own index while it served, with the `at` of the change (the removed presence's, for a removal). */
  const touched = new Map<string, number>();
  let active = false;
  let seed: GeoSeed | undefined;
  let seeding: Promise<void> = Promise.resolve();
  let reseed: NodeJS.Timeout | undefined;
  let recovering: Promise<void> = Promise.resolve();
  let closed = false;

  /** The database's positions never replace what this process heard itself during the outage. */
  const seedTarget: GeoIndex = {
    ...local,
    put: (presence) => (touched.has(presence.uid) ? Promise.resolve() : local.put(presence)),
  };
  const fill = (): Promise<void> => {
    const running = seed ? seed(seedTarget).then(() => undefined, onError) : Promise.resolve();
    seeding = running;
    return running;
  };

  const activate = () => {
    if (active || closed) return;
    active = true;
    void fill();
    reseed = setInterval(() => { if (upstream.isUp()) return; void fill(); }, reseedMs);
    reseed.unref();
  };

  /** Writes the own index's changes back to Redis, then lets Redis serve again; stays on the own index if Redis drops meanwhile. */
  const recover = async (): Promise<void> => {
    while (touched.size > 0) {
      if (!upstream.isUp() || closed) return;
      const [uid, at] = touched.entries().next().value as [string, number];
      touched.delete(uid);
      try {
        const mine = await local.get(uid);
        const theirs = await primary.get(uid);
        if (mine && (!theirs || theirs.at <= mine.at)) await primary.put(mine);
        else if (!mine && theirs && theirs.at <= at) await primary.remove(uid);
      } catch (error) {
        if (!touched.has(uid)) touched.set(uid, at);
        upstream.fellBack('geo_write', error);
        return;
      }
    }
    if (!upstream.isUp() || closed) return;
    active = false;
    clearInterval(reseed);
    reseed = undefined;
    await local.close();
  };

  // Filled at the first call Redis cannot serve, not at the loss itself: a process nobody asks reads nothing.
  upstream.onChange((up) => {
    if (up && active) recovering = recover().catch(onError);
  });

  const serving = (): boolean => {
    if (!upstream.isUp()) activate();
    return active;
  };

  /**
   * One call: to Redis while it serves, to the own index (once filled) otherwise, or when the call
   * to Redis fails. A write is applied to the own index only when it serves, and noted for the way back.
   */
  async function call<T>(operation: 'geo_write' | 'geo_read', shared: () => Promise<T>, own: () => Promise<T>, uid?: string): Promise<T> {
    if (!serving()) {
      try {
        return await shared();
      } catch (error) {
        upstream.fellBack(operation, error);
        activate();
      }
    } else upstream.fellBack(operation);
    await seeding;
    if (operation === 'geo_read' || uid === undefined) return own();
    // Noted before the write, so a fill from the database running meanwhile leaves this driver alone.
    const before = touched.get(uid);
    touched.set(uid, before ?? 0);
    const result = await own();
    const changed = await local.get(uid);
    if (changed) touched.set(uid, changed.at);
    // A move of a driver the own index does not hold changed nothing (the caller asks the database next).
    else if (before === undefined) touched.delete(uid);
    else touched.set(uid, before);
    return result;
  }

  const removeOwn = async (uid: string) => {
    const gone = await local.get(uid);
    // The removal wins over any presence Redis holds that is not newer than the one removed.
    touched.set(uid, gone?.at ?? touched.get(uid) ?? Number.MAX_SAFE_INTEGER);
    await local.remove(uid);
  };

  return {
    kind: 'redis',
    put: (presence: DriverPresence) => call('geo_write', () => primary.put(presence), () => local.put(presence), presence.uid),
    move: (uid, position) => call('geo_write', () => primary.move(uid, position), () => local.move(uid, position), uid),
    async remove(uid) {
      if (!serving()) {
        try {
          await primary.remove(uid);
          return;
        } catch (error) {
          upstream.fellBack('geo_write', error);
          activate();
        }
      } else upstream.fellBack('geo_write');
      await seeding;
      await removeOwn(uid);
    },
    get: (uid) => call('geo_read', () => primary.get(uid), () => local.get(uid)),
    nearest: (query) => call('geo_read', () => primary.nearest(query), () => local.nearest(query)),
    list: (filter) => call('geo_read', () => primary.list(filter), () => local.list(filter)),
    staleSince: (before) => call('geo_read', () => primary.staleSince(before), () => local.staleSince(before)),
    size: () => call('geo_read', () => primary.size(), () => local.size()),
    seedWith(fn) {
      seed = fn;
    },
    isFallingBack: () => active,
    recovered: () => recovering,
    async close() {
      closed = true;
      clearInterval(reseed);
      await local.close();
      await primary.close();
    },
  };
}
