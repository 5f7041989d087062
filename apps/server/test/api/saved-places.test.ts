import { errorBody } from '@rideway/contract';
import { MAX_SAVED_PLACES } from '@rideway/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { savedAddresses } from '../../src/db/schema';
import { recordDrop } from '../../src/modules/places/service';
import type { UserRow } from '../../src/modules/users/accounts';
import { codeOf, createTestApp, ENGINES, type TestApp } from '../harness';

type Place = { id: number; description: string; lat: number; lng: number; count: number; label: 'home' | 'work' | null; name: string | null };

const baker = { description: '221B Baker Street, London', lat: 51.5238, lng: -0.1586 };
const tower = { description: 'Tower of London, London', lat: 51.5081, lng: -0.0759 };
const paddington = { description: 'Paddington Station, London', lat: 51.5154, lng: -0.1755 };

/** Issue 17 point 12: the rider's saved places, recorded at each drop and named by the rider. */
describe.each(ENGINES)('saved places on %s (issue 17 point 12)', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(engine);
  });
  afterAll(() => t.close());

  const places = async (as: UserRow): Promise<Place[]> => {
    const response = await t.request({ method: 'GET', url: '/api/me/places', as });
    expect(response.statusCode).toBe(200);
    return response.json<{ places: Place[] }>().places;
  };
  const save = (as: UserRow, payload: Record<string, unknown>) => t.request({ method: 'POST', url: '/api/me/places', as, payload });
  const edit = (as: UserRow, id: number | string, payload: Record<string, unknown>) => t.request({ method: 'PATCH', url: `/api/me/places/${String(id)}`, as, payload });
  const remove = (as: UserRow, id: number | string) => t.request({ method: 'DELETE', url: `/api/me/places/${String(id)}`, as });
  const stored = async (uid: string) => (await t.db.select().from(savedAddresses).where(eq(savedAddresses.uid, uid))).map(({ description, count, label, name }) => ({ description, count, label, name })).sort((a, b) => a.description.localeCompare(b.description));
  const drop = (uid: string, place: { description: string; lat: number; lng: number }) => t.db.transaction((tx) => recordDrop(tx, uid, { add: place.description, lat: place.lat, lng: place.lng }, false));

  it('lists recorded drops, the most used first, and the profile keeps section 3\'s savedAddresses', async () => {
    const rider = await t.makeUser('rider');
    await drop(rider.id, tower);
    await drop(rider.id, baker);
    // 30 m from the first Baker Street drop: the same place, counted again.
    await drop(rider.id, { description: 'Baker Street, London', lat: 51.5240, lng: -0.1588 });
    const listed = await places(rider);
    expect(listed.map(({ description, count, label, name }) => ({ description, count, label, name }))).toEqual([
      { description: baker.description, count: 2, label: null, name: null },
      { description: tower.description, count: 1, label: null, name: null },
    ]);
    const me = (await t.request({ method: 'GET', url: '/api/me', as: rider })).json<{ user: { savedAddresses: unknown[] } }>();
    expect(me.user.savedAddresses).toEqual([{ ...baker, count: 2 }, { ...tower, count: 1 }]);
  });

  it('names Home and Work, a free name, renames and removes', async () => {
    const rider = await t.makeUser('rider');
    const home = await save(rider, { ...baker, label: 'home' });
    expect(home.statusCode).toBe(201);
    expect(home.json()).toEqual({ place: { id: expect.any(Number), ...baker, count: 1, label: 'home', name: null } });
    // "work" typed as a name is the Work label.
    const work = await save(rider, { ...tower, name: '  Work ' });
    expect([work.statusCode, work.json().place.label, work.json().place.name]).toEqual([201, 'work', null]);
    const gym = await save(rider, { ...paddington, name: ' Gym  ' });
    expect(gym.json().place).toMatchObject({ label: null, name: 'Gym' });

    const renamed = await edit(rider, gym.json().place.id, { name: "Mum's" });
    expect([renamed.statusCode, renamed.json().place.name]).toEqual([200, "Mum's"]);
    // Work moves to the gym: first cleared where it was, then given.
    expect((await edit(rider, work.json().place.id, { label: null })).json().place).toMatchObject({ label: null, name: null });
    expect((await edit(rider, gym.json().place.id, { label: 'work' })).json().place).toMatchObject({ label: 'work', name: null });
    expect((await remove(rider, work.json().place.id)).statusCode).toBe(204);
    expect(await stored(rider.id)).toEqual([
      { description: baker.description, count: 1, label: 'home', name: null },
      { description: paddington.description, count: 1, label: 'work', name: null },
    ]);
  });

  it('names a recorded drop where the rider saves a place on it, keeping its count', async () => {
    const rider = await t.makeUser('rider');
    await drop(rider.id, baker);
    await drop(rider.id, baker);
    const saved = await save(rider, { description: '221B Baker St', lat: 51.5239, lng: -0.1587, label: 'home' });
    expect([saved.statusCode, saved.json().place]).toEqual([200, expect.objectContaining({ description: '221B Baker St', count: 2, label: 'home' })]);
    // The next drop there counts for Home.
    await drop(rider.id, baker);
    expect(await stored(rider.id)).toEqual([{ description: '221B Baker St', count: 3, label: 'home', name: null }]);
    // Saved again there without a name: Home is the answer, unchanged; with a name, a place of its own.
    const again = await save(rider, baker);
    expect([again.statusCode, again.json().place]).toEqual([200, expect.objectContaining({ id: saved.json().place.id, label: 'home', count: 3 })]);
    expect((await save(rider, { ...baker, name: 'Museum' })).statusCode).toBe(201);
    expect(await stored(rider.id)).toEqual([
      { description: '221B Baker St', count: 3, label: 'home', name: null },
      { description: baker.description, count: 1, label: null, name: 'Museum' },
    ]);
  });

  it('keeps at most MAX_SAVED_PLACES: an unnamed one gives way, and with all named the save is refused', async () => {
    const rider = await t.makeUser('rider');
    // Places 1 km apart in a line, each its own.
    const at = (n: number) => ({ description: `Stop ${String(n)}`, lat: 51 + n * 0.01, lng: -0.1 });
    for (let n = 0; n < MAX_SAVED_PLACES - 1; n += 1) expect((await save(rider, { ...at(n), name: `P${String(n)}` })).statusCode).toBe(201);
    await drop(rider.id, at(MAX_SAVED_PLACES - 1));
    expect(await places(rider)).toHaveLength(MAX_SAVED_PLACES);
    // The unnamed drop gives way to a named place.
    expect((await save(rider, { ...at(100), name: 'New' })).statusCode).toBe(201);
    const kept = await stored(rider.id);
    expect(kept).toHaveLength(MAX_SAVED_PLACES);
    expect(kept.some((place) => place.description === at(MAX_SAVED_PLACES - 1).description)).toBe(false);
    // All named now: a save is refused and a drop is not kept; nothing changes.
    const refused = await save(rider, { ...at(101), label: 'home' });
    expect([refused.statusCode, refused.json()]).toEqual([409, errorBody('saved_places_full')]);
    await drop(rider.id, at(102));
    expect(await stored(rider.id)).toEqual(kept);
  });

  describe('attacks', () => {
    it('another rider\'s place is not found, like a missing one, and stays as it was', async () => {
      const victim = await t.makeUser('rider');
      const attacker = await t.makeUser('rider');
      const id = (await save(victim, { ...baker, label: 'home' })).json().place.id as number;
      for (const response of [await edit(attacker, id, { name: 'Mine' }), await remove(attacker, id), await edit(attacker, 999999999, { name: 'Mine' }), await remove(attacker, 999999999)]) {
        expect([response.statusCode, response.json()]).toEqual([404, errorBody('not_found')]);
      }
      expect(await places(attacker)).toEqual([]);
      expect(await stored(victim.id)).toEqual([{ description: baker.description, count: 1, label: 'home', name: null }]);
    });

    it('a signed-out caller gets not_logged_in; a driver, an admin and a fleet admin get forbidden; nothing is stored', async () => {
      const rider = await t.makeUser('rider');
      const id = (await save(rider, baker)).json().place.id as number;
      const calls = [['GET', '/api/me/places'], ['POST', '/api/me/places'], ['PATCH', `/api/me/places/${String(id)}`], ['DELETE', `/api/me/places/${String(id)}`]] as const;
      for (const as of [null, await t.makeUser('driver'), await t.makeUser('admin'), await t.makeUser('fleetadmin')]) {
        for (const [method, url] of calls) {
          const response = await t.request({ method, url, as, ...(method === 'POST' || method === 'PATCH' ? { payload: { ...tower, name: 'x' } } : {}) });
          expect([response.statusCode, codeOf(response)], `${method} ${url} as ${as?.usertype ?? 'anonymous'}`).toEqual(as === null ? [401, 'not_logged_in'] : [403, 'forbidden']);
        }
      }
      expect(await stored(rider.id)).toEqual([{ description: baker.description, count: 1, label: null, name: null }]);
      expect((await t.db.select().from(savedAddresses).where(eq(savedAddresses.name, 'x'))).length).toBe(0);
    });

    it('bad input answers its key, never a 500, and stores nothing', async () => {
      const rider = await t.makeUser('rider');
      const cases: [Record<string, unknown>, string][] = [
        [{ ...baker, name: '' }, 'proper_place_name'],
        [{ ...baker, name: '    ' }, 'proper_place_name'],
        [{ ...baker, name: 'x'.repeat(41) }, 'proper_place_name'],
        [{ ...baker, name: 'x'.repeat(5000) }, 'proper_place_name'],
        [{ ...baker, name: 'Gym\u0007' }, 'proper_place_name'],
        [{ ...baker, name: 42 }, 'proper_place_name'],
        [{ ...baker, label: 'office' }, 'proper_place_name'],
        [{ ...baker, label: 'home', name: 'Gym' }, 'proper_place_name'],
        [{ ...baker, lat: 90.5 }, 'select_proper'],
        [{ ...baker, lat: -91 }, 'select_proper'],
        [{ ...baker, lng: 180.01 }, 'select_proper'],
        [{ ...baker, lng: '-0.1' }, 'select_proper'],
        [{ ...baker, lat: null }, 'select_proper'],
        [{ description: baker.description, lng: baker.lng }, 'select_proper'],
        [{ ...baker, description: '' }, 'select_proper'],
        [{ ...baker, description: '   ' }, 'select_proper'],
        [{ ...baker, description: 'x'.repeat(301) }, 'select_proper'],
        [{ ...baker, count: 1000 }, 'field_not_editable'],
        [{ ...baker, uid: 'someone-else' }, 'field_not_editable'],
      ];
      for (const [payload, key] of cases) {
        const response = await save(rider, payload);
        expect([response.statusCode < 500 && response.statusCode >= 400, codeOf(response)], JSON.stringify(payload).slice(0, 80)).toEqual([true, key]);
      }
      for (const body of ['not json', '[]', 'null']) {
        const response = await t.request({ method: 'POST', url: '/api/me/places', as: rider, payload: body, headers: { 'content-type': 'application/json' } });
        expect(response.statusCode, body).toBeGreaterThanOrEqual(400);
        expect(response.statusCode, body).toBeLessThan(500);
      }
      expect(await stored(rider.id)).toEqual([]);

      const id = (await save(rider, { ...baker, name: 'Gym' })).json().place.id as number;
      for (const [payload, key] of [[{}, 'update_failed'], [{ name: '' }, 'proper_place_name'], [{ name: 'y'.repeat(41) }, 'proper_place_name'], [{ label: 'HOME' }, 'proper_place_name'], [{ count: 9 }, 'field_not_editable'], [{ lat: 0 }, 'field_not_editable']] as const) {
        const response = await edit(rider, id, payload);
        expect([response.statusCode < 500, codeOf(response)], JSON.stringify(payload)).toEqual([true, key]);
      }
      for (const bad of ['abc', '0', '-1', '1.5', '99999999999999999999', "1' OR '1'='1"]) {
        expect(codeOf(await edit(rider, encodeURIComponent(bad), { name: 'x' })), bad).toBe('not_found');
        expect(codeOf(await remove(rider, encodeURIComponent(bad))), bad).toBe('not_found');
      }
      expect(await stored(rider.id)).toEqual([{ description: baker.description, count: 1, label: null, name: 'Gym' }]);
    });

    it('a second Home or Work is refused, by label, by name or by rename, and by requests racing', async () => {
      const rider = await t.makeUser('rider');
      expect((await save(rider, { ...baker, label: 'home' })).statusCode).toBe(201);
      expect((await save(rider, { ...tower, label: 'work' })).statusCode).toBe(201);
      const gym = (await save(rider, { ...paddington, name: 'Gym' })).json().place.id as number;
      for (const response of [
        await save(rider, { description: 'Elsewhere', lat: 52, lng: 0, label: 'home' }),
        await save(rider, { description: 'Elsewhere', lat: 52, lng: 0, name: 'HOME' }),
        await edit(rider, gym, { label: 'work' }),
        await edit(rider, gym, { name: 'work' }),
      ]) expect([response.statusCode, response.json()]).toEqual([409, { error: { ...errorBody('saved_place_label_taken').error, field: 'label' } }]);
      // Another rider's Home is no obstacle.
      expect((await save(await t.makeUser('rider'), { ...baker, label: 'home' })).statusCode).toBe(201);

      const racer = await t.makeUser('rider');
      const answers = await Promise.all(Array.from({ length: 6 }, (_unused, n) => save(racer, { description: `Home ${String(n)}`, lat: 50 + n * 0.05, lng: 0, label: 'home' })));
      expect(answers.map((response) => response.statusCode).sort()).toEqual([201, 409, 409, 409, 409, 409]);
      expect((await stored(racer.id)).filter((place) => place.label === 'home')).toHaveLength(1);
      expect(await stored(rider.id)).toHaveLength(3);
    });

    it('racing saves never go past the limit', async () => {
      const rider = await t.makeUser('rider');
      for (let n = 0; n < MAX_SAVED_PLACES - 2; n += 1) await save(rider, { description: `S${String(n)}`, lat: 40 + n * 0.01, lng: 1, name: `N${String(n)}` });
      const answers = await Promise.all(Array.from({ length: 5 }, (_unused, n) => save(rider, { description: `R${String(n)}`, lat: 30 + n * 0.01, lng: 1, name: `R${String(n)}` })));
      expect(answers.map((response) => response.statusCode).sort()).toEqual([201, 201, 409, 409, 409]);
      expect(await stored(rider.id)).toHaveLength(MAX_SAVED_PLACES);
    });
  });
});

describe.each(ENGINES)('saved places under a flood on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(engine, { RATE_LIMIT_OVERRIDES: 'places.user=3/1h, place-edit.user=2/1h' });
  });
  afterAll(() => t.close());

  it('answers 429 with Retry-After past the limits and stores nothing more', async () => {
    const rider = await t.makeUser('rider');
    const reads = [];
    for (let n = 0; n < 4; n += 1) reads.push(await t.request({ method: 'GET', url: '/api/me/places', as: rider }));
    expect(reads.map((response) => response.statusCode)).toEqual([200, 200, 200, 429]);
    expect(Number(reads[3]?.headers['retry-after'])).toBeGreaterThan(0);
    const writes = [];
    for (let n = 0; n < 3; n += 1) writes.push(await t.request({ method: 'POST', url: '/api/me/places', as: rider, payload: { description: `F${String(n)}`, lat: 51 + n, lng: 0 } }));
    expect(writes.map((response) => response.statusCode)).toEqual([201, 201, 429]);
    expect(writes[2]?.json()).toEqual(errorBody('too_many_requests'));
    expect(Number(writes[2]?.headers['retry-after'])).toBeGreaterThan(0);
    const id = (writes[0]?.json() as { place: { id: number } }).place.id;
    for (const response of [await t.request({ method: 'PATCH', url: `/api/me/places/${String(id)}`, as: rider, payload: { name: 'x' } }), await t.request({ method: 'DELETE', url: `/api/me/places/${String(id)}`, as: rider })]) {
      expect([response.statusCode, codeOf(response)]).toEqual([429, 'too_many_requests']);
    }
    expect((await t.db.select().from(savedAddresses).where(eq(savedAddresses.uid, rider.id))).map((row) => [row.description, row.name])).toEqual(expect.arrayContaining([['F0', null], ['F1', null]]));
    expect(await t.db.select().from(savedAddresses).where(eq(savedAddresses.uid, rider.id))).toHaveLength(2);
  });
});
