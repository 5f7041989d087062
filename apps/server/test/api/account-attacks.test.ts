/**
 * Issue 15's attacks on accounts and uploads, each as it was reproduced by hand: the login throttle
 * raced and turned against others, the password reset and OTP requests used as mail cannons and
 * number oracles, failed sign-ups filling the disk, and licence images read through odd spellings.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { outbox, users } from '../../src/db/schema';
import type * as Passwords from '../../src/modules/accounts/passwords';
import { diskStorage, type FileStorage } from '../../src/providers/storage';
import { PNG, sedan } from '../fixtures';
import { codeOf, createTestApp, ENGINES, PASSWORD, type TestApp } from '../harness';

// Counts the passwords checked against a stored hash (the decoy check of an unknown email included).
const checked = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../src/modules/accounts/passwords', async (importOriginal) => {
  const actual = await importOriginal<typeof Passwords>();
  return {
    ...actual,
    verifyPassword: async (stored: string | null | undefined, password: string) => {
      checked.count += 1;
      return actual.verifyPassword(stored, password);
    },
  };
});

const FIFTEEN_MINUTES = 15 * 60 * 1000;

const tally = (responses: LightMyRequestResponse[]) => {
  const counts: Record<string, number> = {};
  for (const response of responses) {
    const label = `${response.statusCode} ${codeOf(response) ?? ''}`.trim();
    counts[label] = (counts[label] ?? 0) + 1;
  }
  return counts;
};

describe.each(ENGINES)('attacks on accounts and uploads on %s (issue 15)', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(engine);
  });
  afterAll(() => t.close());
  // Each attack starts in a window of its own.
  afterEach(() => {
    t.advance(FIFTEEN_MINUTES + 1000);
  });

  const signIn = (email: string | null, password: string, address: string) =>
    t.request({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress: address });

  describe('the login throttle', () => {
    it('150 parallel wrong passwords on one account: only 10 reach the hash, the rest get 429 with Retry-After', async () => {
      const victim = await t.makeUser('rider');
      checked.count = 0;
      const responses = await Promise.all(Array.from({ length: 150 }, () => signIn(victim.email, 'wrong123', '203.0.113.7')));
      expect(checked.count).toBeLessThanOrEqual(10);
      expect(tally(responses)).toEqual({ '401 login_error': checked.count, '429 too_many_requests': 150 - checked.count });
      for (const response of responses.filter((r) => r.statusCode === 429)) {
        expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
        expect(Number(response.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);
      }
      // The right password from that address waits too; from anywhere else the owner signs in.
      expect((await signIn(victim.email, PASSWORD, '203.0.113.7')).statusCode).toBe(429);
      expect((await signIn(victim.email, PASSWORD, '198.51.100.20')).statusCode).toBe(200);
    });

    it('an attacker cannot lock the owner out from elsewhere, and is throttled itself', async () => {
      const victim = await t.makeUser('rider');
      const attempts: number[] = [];
      for (let i = 0; i < 12; i += 1) attempts.push((await signIn(victim.email, 'wrong123', '203.0.113.8')).statusCode);
      expect(attempts).toEqual([...Array<number>(10).fill(401), 429, 429]);
      expect((await signIn(victim.email, PASSWORD, '198.51.100.21')).statusCode).toBe(200);
      // Once the window has passed, the attacker's address gets its 10 tries again, no more.
      t.advance(FIFTEEN_MINUTES + 1000);
      expect((await signIn(victim.email, 'wrong123', '203.0.113.8')).statusCode).toBe(401);
    });

    it('a guess from each of many addresses: strangers stop after 50, the owner still signs in where it did before', async () => {
      const victim = await t.makeUser('rider');
      expect((await signIn(victim.email, PASSWORD, '198.51.100.22')).statusCode).toBe(200);
      const statuses: number[] = [];
      for (let i = 0; i < 55; i += 1) statuses.push((await signIn(victim.email, 'wrong123', `192.0.2.${i + 1}`)).statusCode);
      expect(statuses).toEqual([...Array<number>(50).fill(401), ...Array<number>(5).fill(429)]);
      expect((await signIn(victim.email, PASSWORD, '198.51.100.22')).statusCode).toBe(200);
      expect((await signIn(victim.email, PASSWORD, '192.0.2.200')).statusCode).toBe(429);
    });

    it('failures on made-up emails lock nobody out of a shared address; spraying many accounts is throttled', async () => {
      const regular = await t.makeUser('rider');
      expect((await signIn(regular.email, PASSWORD, '203.0.113.9')).statusCode).toBe(200);
      const sprayed: number[] = [];
      for (let i = 0; i < 10; i += 1) sprayed.push((await signIn(`made-up-${i}@example.com`, 'wrong123', '203.0.113.9')).statusCode);
      expect(sprayed).toEqual(Array<number>(10).fill(401));
      // Ten failures on made-up emails: another user behind the same address signs in.
      const colleague = await t.makeUser('rider');
      expect((await signIn(colleague.email, PASSWORD, '203.0.113.9')).statusCode).toBe(200);
      for (let i = 10; i < 25; i += 1) sprayed.push((await signIn(`made-up-${i}@example.com`, 'wrong123', '203.0.113.9')).statusCode);
      // 20 accounts per address and window: the sprayer stops there.
      expect(sprayed.filter((status) => status === 401)).toHaveLength(20);
      expect(sprayed.slice(20)).toEqual(Array<number>(5).fill(429));
      // Those who signed in from the address before keep signing in; a newcomer waits there only.
      expect((await signIn(regular.email, PASSWORD, '203.0.113.9')).statusCode).toBe(200);
      expect((await signIn(colleague.email, PASSWORD, '203.0.113.9')).statusCode).toBe(200);
      const newcomer = await t.makeUser('rider');
      expect((await signIn(newcomer.email, PASSWORD, '203.0.113.9')).statusCode).toBe(429);
      expect((await signIn(newcomer.email, PASSWORD, '198.51.100.23')).statusCode).toBe(200);
    });

    it('counts an IPv6 network (/64) as one address', async () => {
      const victim = await t.makeUser('rider');
      const statuses: number[] = [];
      for (let i = 0; i < 11; i += 1) statuses.push((await signIn(victim.email, 'wrong123', `2001:db8:1:2::${(i + 1).toString(16)}`)).statusCode);
      expect(statuses.at(-1)).toBe(429);
      expect((await signIn(victim.email, PASSWORD, '2001:db8:1:3::1')).statusCode).toBe(200);
    });
  });

  describe('password reset and OTP requests', () => {
    const mails = async (recipient: string) => (await t.db.select().from(outbox).where(and(eq(outbox.recipient, recipient), eq(outbox.channel, 'mail')))).length;
    const askReset = (email: string | null, address: string) =>
      t.request({ method: 'POST', url: '/api/auth/password-reset', payload: { email }, remoteAddress: address });

    it('20 reset requests for one account queue 3 mails; the answers are the same for an email without an account', async () => {
      const user = await t.makeUser('rider');
      const forUser: LightMyRequestResponse[] = [];
      const forGhost: LightMyRequestResponse[] = [];
      for (let i = 0; i < 20; i += 1) {
        forUser.push(await askReset(user.email, `198.18.0.${i + 1}`));
        forGhost.push(await askReset('nobody-here@example.com', `198.18.1.${i + 1}`));
      }
      expect(await mails(user.email ?? '')).toBe(3);
      expect(forUser.map((r) => [r.statusCode, r.body])).toEqual(forGhost.map((r) => [r.statusCode, r.body]));
      expect(tally(forUser)).toEqual({ '200': 3, '429 too_many_requests': 17 });
      expect(Number(forUser.at(-1)?.headers['retry-after'])).toBeGreaterThan(0);
    });

    it('one address asks for at most 10 resets per window, whatever the emails', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 12; i += 1) statuses.push((await askReset(`someone-${i}@example.com`, '198.18.2.1')).statusCode);
      expect(statuses).toEqual([...Array<number>(10).fill(200), 429, 429]);
      const user = await t.makeUser('rider');
      expect((await askReset(user.email, '198.18.2.2')).statusCode).toBe(200);
    });

    it('the OTP request keeps user_does_not_exists, but one address can ask about 10 numbers per window', async () => {
      const answers: string[] = [];
      for (let i = 0; i < 12; i += 1) {
        const response = await t.request({ method: 'POST', url: '/api/auth/otp/request', payload: { mobile: `4155500${String(i).padStart(3, '0')}` }, remoteAddress: '198.18.3.1' });
        answers.push(`${response.statusCode} ${codeOf(response)}`);
      }
      expect(answers).toEqual([...Array<string>(10).fill('404 user_does_not_exists'), '429 too_many_requests', '429 too_many_requests']);
      const user = await t.makeUser('rider');
      const elsewhere = await t.request({ method: 'POST', url: '/api/auth/otp/request', payload: { mobile: user.mobile }, remoteAddress: '198.18.3.2' });
      expect(elsewhere.statusCode).toBe(200);
    });
  });

  describe('uploads and licence images', () => {
    let folder: string;
    let original: FileStorage;
    let admin: Awaited<ReturnType<TestApp['makeUser']>>;
    beforeAll(async () => {
      // On disk, as `npm start` stores them: the spellings that leaked did so through the file system.
      folder = await mkdtemp(join(tmpdir(), 'rideway-files-'));
      original = t.app.ctx.storage;
      t.app.ctx.storage = diskStorage(folder);
      admin = await t.makeUser('admin');
      expect((await t.request({ method: 'POST', url: '/api/cartypes', as: admin, payload: sedan })).statusCode).toBe(201);
    });
    afterAll(async () => {
      t.app.ctx.storage = original;
      await rm(folder, { recursive: true, force: true });
    });

    const licences = async () => readdir(join(folder, 'licences')).catch(() => [] as string[]);
    let sequence = 0;
    const driverSignUp = (extra: Record<string, unknown> = {}) => {
      sequence += 1;
      return {
        firstName: 'Dana',
        lastName: 'Driver',
        email: `dana.${engine}.${sequence}@example.com`,
        mobile: `6${engine === 'pglite' ? 1 : 2}${String(sequence).padStart(7, '0')}`,
        password: 'dana123',
        usertype: 'driver',
        carType: sedan.name,
        vehicleNumber: 'LC12 ABC',
        licenseImage: PNG,
        ...extra,
      };
    };
    const register = (payload: Record<string, unknown>, address = '127.0.0.1') =>
      t.request({ method: 'POST', url: '/api/auth/register', payload, remoteAddress: address });

    it('a driver sign-up that fails leaves no licence file behind', async () => {
      const taken = await t.makeUser('rider');
      const before = await licences();
      const failures = [
        await register(driverSignUp({ email: taken.email })),
        await register(driverSignUp({ mobile: taken.mobile })),
        await register(driverSignUp({ carType: 'Hovercraft' })),
        await register(driverSignUp({ referralId: 'nobody1234' })),
        await register(driverSignUp({ vehicleNumber: ' ' })),
      ];
      expect(failures.map(codeOf)).toEqual(['user_exists', 'user_exists', 'select_proper', 'referer_not_found', 'select_proper']);
      expect(await licences()).toEqual(before);
    });

    it('parallel sign-ups racing for one email store one licence: the one of the account created', async () => {
      const before = await licences();
      const payload = driverSignUp();
      const responses = await Promise.all(Array.from({ length: 5 }, (_, i) => register({ ...payload, mobile: `${payload.mobile.slice(0, -1)}${i}` })));
      const created = responses.filter((response) => response.statusCode === 201);
      expect(created).toHaveLength(1);
      expect(responses.filter((response) => response.statusCode !== 201).map(codeOf)).toEqual(Array<string>(4).fill('user_exists'));
      const added = (await licences()).filter((name) => !before.includes(name));
      expect(added.map((name) => `licences/${name}`)).toEqual([created[0]?.json().user.licenseImage]);
    });

    it('a licence image is served only to admins, the driver and its own fleet admin, whatever the spelling', async () => {
      const created = await register(driverSignUp());
      expect(created.statusCode).toBe(201);
      const driver = created.json().user as { id: string; licenseImage: string };
      const key = driver.licenseImage;
      const name = key.slice('licences/'.length);
      const fleet = await t.makeUser('fleetadmin');
      const otherFleet = await t.makeUser('fleetadmin');
      await t.db.update(users).set({ fleetadmin: fleet.id }).where(eq(users.id, driver.id));
      const driverRow = (await t.db.select().from(users).where(eq(users.id, driver.id)))[0];
      if (!driverRow) throw new Error('driver not stored');

      const spellings = [
        `/api/files/${key}`,
        `/api/files//${key}`,
        `/api/files///${key}`,
        `/api/files/./${key}`,
        `/api/files/%2F${key}`,
        `/api/files/licences%2F${name}`,
        `/api/files/%2e/${key}`,
        `/api/files/cartypes/../${key}`,
        `/api/files/cartypes/%2e%2e/${key}`,
        `/api/files/LICENCES/${name}`,
        `/api/files/licences/${name.toUpperCase()}`,
        `/api/files/licences\\${name}`,
      ];
      for (const url of spellings) {
        for (const as of [null, await t.makeUser('rider'), await t.makeUser('driver'), otherFleet]) {
          const response = await t.request({ method: 'GET', url, as });
          expect([url, as?.usertype ?? 'anonymous', response.statusCode]).toEqual([url, as?.usertype ?? 'anonymous', 404]);
        }
      }
      for (const as of [admin, fleet, driverRow]) {
        const response = await t.request({ method: 'GET', url: `/api/files/${key}`, as });
        expect([as.usertype, response.statusCode]).toEqual([as.usertype, 200]);
        expect(response.headers['content-type']).toBe('image/png');
        expect(response.headers['cache-control']).toBe('private, no-store');
      }
    });

    it('other uploads stay public at their one spelling', async () => {
      const { cartype } = (await t.request({ method: 'POST', url: '/api/cartypes', as: admin, payload: { ...sedan, name: 'Pictured', image: PNG } })).json();
      const served = await t.request({ method: 'GET', url: cartype.image });
      expect([served.statusCode, served.headers['cache-control']]).toEqual([200, 'public, max-age=31536000, immutable']);
      const doubled = await t.request({ method: 'GET', url: String(cartype.image).replace('/api/files/', '/api/files//') });
      expect(doubled.statusCode).toBe(200);
    });
  });
});
