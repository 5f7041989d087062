import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAllowed } from '../../src/http/routing';
import { codeOf, createTestApp, ENGINES, registeredRoutes, type TestApp } from '../harness';
import type { UserRow } from '../../src/modules/users/accounts';

const ROLES = ['anonymous', 'rider', 'driver', 'fleetadmin', 'admin'] as const;
type Role = (typeof ROLES)[number];

const rows = await registeredRoutes();

const concrete = (url: string): string => url.replace(/:id/g, randomUUID()).replace('*', 'cartypes/none.png');

describe.each(ENGINES)('the route table as a role matrix on %s (ARCHITECTURE rule 6)', (engine) => {
  let t: TestApp;
  let users: Record<Exclude<Role, 'anonymous'>, UserRow>;
  beforeAll(async () => {
    t = await createTestApp(engine);
    users = {
      rider: await t.makeUser('rider'),
      driver: await t.makeUser('driver'),
      fleetadmin: await t.makeUser('fleetadmin'),
      admin: await t.makeUser('admin'),
    };
  });
  afterAll(() => t.close());

  it('every row of the table is a route the server serves', () => {
    for (const row of rows) expect(t.app.hasRoute({ method: row.method, url: row.url }), row.key).toBe(true);
  });

  it('a route without a row stops the server from starting', async () => {
    const fresh = await createTestApp('pglite');
    try {
      expect(() => fresh.app.get('/api/unlisted', () => 'x')).toThrow(/GET \/api\/unlisted declares no access/);
    } finally {
      await fresh.close();
    }
  });

  for (const row of rows) {
    it(`${row.key}: ${typeof row.access === 'string' ? row.access : row.access.join(', ')}`, async () => {
      for (const role of ROLES) {
        const as = role === 'anonymous' ? null : users[role];
        const response = await t.request({ method: row.method, url: concrete(row.url), as, ...(row.method === 'GET' || row.method === 'DELETE' ? {} : { payload: {} }) });
        const allowed = isAllowed(row.access, role === 'anonymous' ? null : role);
        if (allowed) {
          expect({ role, status: response.statusCode }, row.key).not.toEqual(expect.objectContaining({ status: 401 }));
          expect(codeOf(response) === 'forbidden' && row.key !== 'POST /api/users', `${row.key} as ${role}`).toBe(false);
          expect(response.statusCode, `${row.key} as ${role}`).toBeLessThan(500);
        } else {
          expect([role, response.statusCode, codeOf(response)], row.key).toEqual(
            role === 'anonymous' ? [role, 401, 'not_logged_in'] : [role, 403, 'forbidden'],
          );
        }
      }
    });
  }

  describe('ownership: another user\'s object answers 404, exactly like a missing one', () => {
    it('users: a rider, a driver or another fleet cannot touch someone else', async () => {
      const victim = await t.makeUser('rider');
      const fleetDriver = await t.makeUser('driver', { fleetadmin: users.fleetadmin.id });
      const otherFleet = await t.makeUser('fleetadmin');
      for (const as of [users.rider, users.driver]) {
        const response = await t.request({ method: 'DELETE', url: `/api/users/${victim.id}`, as });
        expect([response.statusCode, codeOf(response)]).toEqual([404, 'not_found']);
      }
      const missing = await t.request({ method: 'PATCH', url: `/api/users/${randomUUID()}`, as: otherFleet, payload: { firstName: 'x' } });
      const foreign = await t.request({ method: 'PATCH', url: `/api/users/${fleetDriver.id}`, as: otherFleet, payload: { firstName: 'x' } });
      expect(foreign.json()).toEqual(missing.json());
      const own = await t.request({ method: 'PATCH', url: `/api/users/${fleetDriver.id}`, as: users.fleetadmin, payload: { firstName: 'Mine' } });
      expect(own.statusCode).toBe(200);
    });

    it("a user's detail page and approval (issue 20 point 6): another fleet's driver answers 404 like a missing one", async () => {
      const fleetDriver = await t.makeUser('driver', { fleetadmin: users.fleetadmin.id });
      const otherFleet = await t.makeUser('fleetadmin');
      const missing = await t.request({ method: 'GET', url: `/api/users/${randomUUID()}/detail`, as: otherFleet });
      const foreign = await t.request({ method: 'GET', url: `/api/users/${fleetDriver.id}/detail`, as: otherFleet });
      expect([foreign.statusCode, foreign.json()]).toEqual([404, missing.json()]);
      expect((await t.request({ method: 'GET', url: `/api/users/${fleetDriver.id}/detail`, as: users.fleetadmin })).statusCode).toBe(200);
      const otherAdmin = await t.makeUser('admin');
      const missingTarget = await t.request({ method: 'POST', url: `/api/users/${randomUUID()}/approval`, as: users.admin, payload: { approved: false, reason: 'x' } });
      const adminTarget = await t.request({ method: 'POST', url: `/api/users/${otherAdmin.id}/approval`, as: users.admin, payload: { approved: false, reason: 'x' } });
      expect([adminTarget.statusCode, adminTarget.json()]).toEqual([404, missingTarget.json()]);
    });

    it("vehicles (issue 20 point 3): another driver's vehicle and another fleet's driver's vehicle answer 404 like a missing one", async () => {
      // A driver made with a car has it as its first vehicle (accounts.ts).
      const fleetDriver = await t.makeUser('driver', { fleetadmin: users.fleetadmin.id, carType: 'Sedan', vehicleNumber: 'M 1' });
      const owner = await t.makeUser('driver', { fleetadmin: (await t.makeUser('fleetadmin')).id, carType: 'Sedan', vehicleNumber: 'M 2' });
      const idOf = async (uid: string) => ((await t.request({ method: 'GET', url: '/api/vehicles', as: users.admin })).json<{ vehicles: { id: string; uid: string }[] }>().vehicles.find((row) => row.uid === uid))?.id ?? '';
      const theirs = await idOf(owner.id);
      for (const [method, url, as] of [
        ['POST', `/api/driver/vehicles/${theirs}/activate`, users.driver],
        ['DELETE', `/api/driver/vehicles/${theirs}`, users.driver],
        ['POST', `/api/vehicles/${theirs}/approve`, users.fleetadmin],
      ] as const) {
        const foreign = await t.request({ method, url, as });
        const missing = await t.request({ method, url: url.replace(theirs, randomUUID()), as });
        expect([foreign.statusCode, codeOf(foreign)], url).toEqual([missing.statusCode, codeOf(missing)]);
        expect(foreign.statusCode, url).toBe(404);
      }
      expect(codeOf(await t.request({ method: 'POST', url: `/api/vehicles/${await idOf(fleetDriver.id)}/reject`, as: users.fleetadmin, payload: { reason: 'Own driver' } }))).toBeUndefined();
    });

    it('withdraws: a driver lists only its own', async () => {
      const other = await t.makeUser('driver', { bankName: 'B', bankCode: '1', bankAccount: '2' });
      await t.request({ method: 'POST', url: '/api/wallet/credit', as: users.admin, payload: { uid: other.id, amount: 5 } });
      await t.request({ method: 'POST', url: '/api/withdraws', as: other, payload: { amount: 5 } });
      const mine = (await t.request({ method: 'GET', url: '/api/withdraws', as: users.driver })).json().withdraws;
      expect(mine).toEqual([]);
    });

    it('wallet: every caller reads only its own wallet', async () => {
      await t.request({ method: 'POST', url: '/api/wallet/credit', as: users.admin, payload: { uid: users.rider.id, amount: 3 } });
      expect((await t.request({ method: 'GET', url: '/api/wallet', as: users.driver })).json().walletBalance).toBe(0);
    });
  });
});
