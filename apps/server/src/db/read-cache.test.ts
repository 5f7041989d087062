import { describe, expect, it } from 'vitest';
import type { Db } from './client';
import { attachReadCache, dataChanged, readThrough, type CachedData } from './read-cache';

/** A stand-in for a Db: the cache knows a database by its client only. */
const fakeDb = (): Db => ({ $client: {} }) as unknown as Db;

/** A load that counts its calls and answers `value`. */
function loader(value: string) {
  const load = () => {
    load.calls += 1;
    return Promise.resolve(value);
  };
  load.calls = 0;
  return load;
}

describe('the read-mostly cache (issue 21, point 1)', () => {
  it('answers from memory until the data changes, then reads again', async () => {
    const db = fakeDb();
    const load = loader('v1');
    expect(await readThrough(db, 'cancelReasons', load)).toBe('v1');
    expect(await readThrough(db, 'cancelReasons', load)).toBe('v1');
    expect(load.calls).toBe(1);
    await dataChanged('cancelReasons');
    expect(await readThrough(db, 'cancelReasons', load)).toBe('v1');
    expect(load.calls).toBe(2);
  });

  it('keeps nothing read while a change was announced: a read racing a commit cannot keep the old value', async () => {
    const db = fakeDb();
    let release = () => {};
    const held = new Promise<void>((resolve) => { release = resolve; });
    const first = readThrough(db, 'languages', async () => {
      await held;
      return 'before the change';
    });
    await dataChanged('languages');
    release();
    expect(await first).toBe('before the change');
    const after = loader('after the change');
    expect(await readThrough(db, 'languages', after)).toBe('after the change');
    expect(after.calls).toBe(1);
  });

  it('keeps databases apart', async () => {
    const [one, two] = [fakeDb(), fakeDb()];
    expect(await readThrough(one, 'carTypes', loader('one'))).toBe('one');
    expect(await readThrough(two, 'carTypes', loader('two'))).toBe('two');
    expect(await readThrough(one, 'carTypes', loader('unused'))).toBe('one');
  });

  it('reads through while the bus of the app on the database is not healthy, and announces every change on it', async () => {
    const db = fakeDb();
    let healthy = false;
    const announced: CachedData[][] = [];
    const detach = attachReadCache(db, { announce: (data) => { announced.push(data); return Promise.resolve(); } }, () => healthy);
    try {
      const load = loader('v');
      await readThrough(db, 'settings', load);
      await readThrough(db, 'settings', load);
      expect(load.calls).toBe(2);
      healthy = true;
      await readThrough(db, 'settings', load);
      await readThrough(db, 'settings', load);
      expect(load.calls).toBe(3);
      await dataChanged('settings', 'carTypes');
      expect(announced).toEqual([['settings', 'carTypes']]);
    } finally {
      detach();
    }
  });
});
