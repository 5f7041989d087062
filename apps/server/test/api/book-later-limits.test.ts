import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_OPEN_BOOK_LATER } from '../../src/modules/bookings/create';
import type { UserRow } from '../../src/modules/users/accounts';
import { drop, pickup, sedan } from '../fixtures';
import { codeOf, createTestApp, ENGINES, type TestApp } from '../harness';

const DAY = 24 * 3600_000;

describe.each(ENGINES)('book later limits on %s (issue 15)', (engine) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(engine);
    const admin = await t.makeUser('admin');
    await t.request({ method: 'POST', url: '/api/cartypes', as: admin, payload: sedan });
  });
  afterAll(() => t.close());

  const bookLater = (rider: UserRow, tripdate: number) => t.request({ method: 'POST', url: '/api/bookings', as: rider, payload: { pickup, drop, carType: 'Sedan', bookLater: true, tripdate } });

  it('takes a trip date at most 30 days ahead: year 275760 is refused', async () => {
    const rider = await t.makeUser('rider');
    expect((await bookLater(rider, t.clock.now + 30 * DAY)).statusCode).toBe(201);
    const tooFar = await bookLater(rider, t.clock.now + 30 * DAY + 1);
    expect(tooFar.statusCode).toBe(400);
    expect(codeOf(tooFar)).toBe('book_later_too_far');
    expect(codeOf(await bookLater(rider, 8_640_000_000_000_000))).toBe('book_later_too_far');
  });

  it(`holds at most ${String(MAX_OPEN_BOOK_LATER)} open later bookings per rider, even when sent in parallel`, async () => {
    const rider = await t.makeUser('rider');
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => bookLater(rider, t.clock.now + DAY + i * 60_000)));
    expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(MAX_OPEN_BOOK_LATER);
    for (const refused of answers.filter((a) => a.statusCode !== 201)) expect(codeOf(refused)).toBe('book_later_limit');
    // Another rider is not affected; a cancelled one frees a place.
    expect((await bookLater(await t.makeUser('rider'), t.clock.now + DAY)).statusCode).toBe(201);
    const first = answers.find((a) => a.statusCode === 201)?.json<{ id: string }>().id;
    expect((await t.request({ method: 'POST', url: `/api/bookings/${String(first)}/cancel`, as: rider, payload: { reason: 'Changed plans' } })).statusCode).toBe(200);
    expect((await bookLater(rider, t.clock.now + DAY)).statusCode).toBe(201);
  });
});
