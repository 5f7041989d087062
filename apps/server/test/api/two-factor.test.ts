import Fastify, { type FastifyInstance } from 'fastify';
import { landingRouteAfterLogin } from '@rideway/domain';
import { eq } from 'drizzle-orm';
import { exportPKCS8, generateKeyPair } from 'jose';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox, sessions, twoFactor, twoFactorChallenges, twoFactorRecoveryCodes, users } from '../../src/db/schema';
import type { UserRow } from '../../src/modules/accounts/accounts';
import { codeOf, createTestApp, ENGINES, PASSWORD, type TestApp } from '../harness';
import { startOidcStandIn, type OidcStandIn } from '../oidc-stand-in';

/**
 * Issue 20 point 5: two-factor sign-in (TOTP) for admins and fleet admins, on both engines. The
 * codes are computed here with otplib from the secret the enrolment answers, at the test clock.
 */
const FACEBOOK = { id: '1234567890', secret: 'facebook-app-secret-for-tests' };
const GOOGLE = { id: 'rideway-google-client.apps.googleusercontent.com', secret: 'google-client-secret-for-tests' };
const PUBLIC_URL = 'http://rideway.test';

/** Facebook's Graph API, as far as a returning user's sign-in needs it (facebook.test.ts has the whole stand-in). */
async function fakeGraph(): Promise<{ url: string; server: FastifyInstance; people: Map<string, { id: string; email: string }> }> {
  const server = Fastify();
  const people = new Map<string, { id: string; email: string }>();
  server.get('/oauth/access_token', async (request, reply) => {
    const query = request.query as Record<string, string>;
    if (query.client_secret !== FACEBOOK.secret || !people.has(query.code ?? '')) return reply.status(400).send({ error: { message: 'bad code' } });
    return { access_token: `token-${query.code}` };
  });
  server.get('/me', async (request, reply) => {
    const person = people.get(((request.query as Record<string, string>).access_token ?? '').replace(/^token-/, ''));
    return person ?? reply.status(400).send({ error: { message: 'bad token' } });
  });
  return { url: await server.listen({ port: 0, host: '127.0.0.1' }), server, people };
}

describe.each(ENGINES)('two-factor sign-in for staff on %s (issue 20 point 5)', (engine) => {
  let t: TestApp;
  let graph: Awaited<ReturnType<typeof fakeGraph>>;
  let provider: OidcStandIn;
  beforeAll(async () => {
    graph = await fakeGraph();
    // The stand-in speaks for Apple too; this file signs in with Google only.
    const pair = await generateKeyPair('ES256', { extractable: true });
    provider = await startOidcStandIn({ googleClient: GOOGLE, appleClient: { clientId: 'com.rideway.signin', teamId: 'TEAM123456', keyId: 'KEY1234567', privateKeyPem: await exportPKCS8(pair.privateKey), publicKey: pair.publicKey } });
    t = await createTestApp(engine, {
      PUBLIC_URL,
      FACEBOOK_APP_ID: FACEBOOK.id,
      FACEBOOK_APP_SECRET: FACEBOOK.secret,
      FACEBOOK_GRAPH_URL: graph.url,
      FACEBOOK_DIALOG_URL: 'https://dialog.example/oauth',
      GOOGLE_CLIENT_ID: GOOGLE.id,
      GOOGLE_CLIENT_SECRET: GOOGLE.secret,
      GOOGLE_ISSUER: provider.issuer('google'),
      // Authenticator secrets sealed at rest (secret-box.ts): every flow below runs with them sealed.
      TWO_FACTOR_KEY: 'a'.repeat(64),
      // The address limits have a test of their own below, on a server of their own.
      RATE_LIMIT_OVERRIDES: 'two-factor-sign-in.address=10000/1h, two-factor.user=10000/1h, two-factor.address=10000/1h, two-factor-reset.user=10000/1h, two-factor-reset.address=10000/1h',
    });
    await t.setSettings({ FacebookLoginEnabled: true, GoogleLoginEnabled: true });
  });
  afterAll(async () => {
    await t.close();
    await graph.server.close();
    await provider.close();
  });

  const epoch = () => Math.floor(t.clock.now / 1000);
  const codeAt = (secret: string, offsetS = 0) => generate({ secret, epoch: epoch() + offsetS });
  /** Moves the clock to the next 30-second step: a code of a new step. */
  const nextStep = () => { t.advance(30_000); };
  const login = (user: UserRow, password = PASSWORD) => t.request({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password } });
  const verify = (challenge: string | undefined, code: string, cookie?: string) =>
    t.request({ method: 'POST', url: '/api/auth/2fa/verify', payload: { code, ...(challenge === undefined ? {} : { challenge }) }, ...(cookie ? { headers: { cookie } } : {}) });
  const sessionsOf = async (user: UserRow) => (await t.db.select().from(sessions).where(eq(sessions.uid, user.id))).length;

  /** Enrols the user from the profile: start, confirm with a current code; answers the secret and the recovery codes. */
  async function enrol(user: UserRow): Promise<{ secret: string; recoveryCodes: string[] }> {
    const started = await t.request({ method: 'POST', url: '/api/me/two-factor/start', as: user });
    expect(started.statusCode).toBe(200);
    const { secret, uri, qr } = started.json<{ secret: string; uri: string; qr: string }>();
    expect(uri).toMatch(/^otpauth:\/\/totp\//);
    expect(new URL(uri).searchParams.get('secret')).toBe(secret);
    expect(qr).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(qr.split(',')[1] ?? '', 'base64').toString()).toContain('<svg');
    const confirmed = await t.request({ method: 'POST', url: '/api/me/two-factor/confirm', as: user, payload: { code: await codeAt(secret) } });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const { recoveryCodes } = confirmed.json<{ recoveryCodes: string[] }>();
    nextStep();
    return { secret, recoveryCodes };
  }

  it('an admin enrols: until confirmed nothing changes; once confirmed the password alone answers a challenge, not a session', async () => {
    const admin = await t.makeUser('admin');
    const started = (await t.request({ method: 'POST', url: '/api/me/two-factor/start', as: admin })).json<{ secret: string }>();
    // Not confirmed yet: sign-in is as before.
    expect(Object.keys((await login(admin)).json<object>()).sort()).toEqual(['token', 'user']);
    // A wrong code does not confirm it.
    const wrong = await t.request({ method: 'POST', url: '/api/me/two-factor/confirm', as: admin, payload: { code: '000000' === (await codeAt(started.secret)) ? '111111' : '000000' } });
    expect([wrong.statusCode, codeOf(wrong)]).toEqual([400, 'two_factor_code_wrong']);
    const confirmed = await t.request({ method: 'POST', url: '/api/me/two-factor/confirm', as: admin, payload: { code: await codeAt(started.secret) } });
    const { recoveryCodes } = confirmed.json<{ recoveryCodes: string[] }>();
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z0-9]{5}-[a-z0-9]{5}$/);
    // Stored hashed only, and the secret is not answered again.
    const stored = await t.db.select().from(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.uid, admin.id));
    expect(stored.map((row) => row.codeHash)).not.toContain(recoveryCodes[0]);
    expect(stored.every((row) => /^[0-9a-f]{64}$/.test(row.codeHash))).toBe(true);
    // The authenticator secret is sealed with TWO_FACTOR_KEY: the database alone cannot mint codes.
    const [kept] = await t.db.select().from(twoFactor).where(eq(twoFactor.uid, admin.id));
    expect(kept?.secret).toMatch(/^enc:v1:/);
    expect(kept?.secret).not.toContain(started.secret);
    const status = (await t.request({ method: 'GET', url: '/api/me/two-factor', as: admin })).json();
    expect(status).toMatchObject({ enabled: true, recoveryCodesLeft: 10, required: false });
    expect(JSON.stringify(status)).not.toContain(started.secret);
    expect([(await t.request({ method: 'POST', url: '/api/me/two-factor/start', as: admin })).statusCode]).toEqual([409]);

    nextStep();
    const before = await sessionsOf(admin);
    const first = await login(admin);
    expect(first.statusCode).toBe(200);
    const answer = first.json<{ twoFactorRequired: true; challenge: string; enrol: boolean; token?: string }>();
    expect(answer).toMatchObject({ twoFactorRequired: true, enrol: false });
    expect(answer.token).toBeUndefined();
    expect(first.cookies.find((cookie) => cookie.name === 'rideway_session')).toBeUndefined();
    expect(first.cookies.find((cookie) => cookie.name === 'rideway_2fa')).toMatchObject({ value: answer.challenge, httpOnly: true, path: '/api/auth/2fa' });
    expect(await sessionsOf(admin)).toBe(before);

    const done = await verify(answer.challenge, await codeAt(started.secret));
    expect(done.statusCode, done.body).toBe(200);
    const session = done.json<{ token: string; user: { id: string }; landing: string }>();
    expect(session.user.id).toBe(admin.id);
    expect(session.landing).toBe(landingRouteAfterLogin('admin'));
    expect(done.cookies.find((cookie) => cookie.name === 'rideway_session')?.value).toBe(session.token);
    expect((await t.request({ method: 'GET', url: '/api/me', headers: { authorization: `Bearer ${session.token}` } })).statusCode).toBe(200);
    // Single use: the challenge is gone.
    nextStep();
    expect(codeOf(await verify(answer.challenge, await codeAt(started.secret)))).toBe('two_factor_challenge_expired');
  });

  it('refuses a wrong code, a replayed code, and a challenge after 5 wrong codes; the web sends the challenge by its cookie', async () => {
    const admin = await t.makeUser('fleetadmin');
    const { secret } = await enrol(admin);
    const { challenge } = (await login(admin)).json<{ challenge: string }>();
    const right = await codeAt(secret);
    const wrongCode = right === '123456' ? '654321' : '123456';
    const wrong = await verify(challenge, wrongCode);
    expect([wrong.statusCode, codeOf(wrong)]).toEqual([400, 'two_factor_code_wrong']);
    // The cookie carries the challenge for the web.
    const ok = await verify(undefined, right, `rideway_2fa=${challenge}`);
    expect(ok.statusCode, ok.body).toBe(200);
    expect((ok.json<{ landing: string }>()).landing).toBe(landingRouteAfterLogin('fleetadmin'));

    // The same code again, on a new challenge within its window: replayed, refused.
    const again = (await login(admin)).json<{ challenge: string }>();
    expect(codeOf(await verify(again.challenge, right))).toBe('two_factor_code_wrong');
    // A code of the step before the one used is refused too (only later steps count).
    nextStep();
    expect(codeOf(await verify(again.challenge, await codeAt(secret, -60)))).toBe('two_factor_code_wrong');
    // Five wrong codes void the challenge, even for the right code.
    for (let i = 0; i < 3; i += 1) expect(codeOf(await verify(again.challenge, wrongCode))).toBe('two_factor_code_wrong');
    expect(codeOf(await verify(again.challenge, await codeAt(secret)))).toBe('two_factor_challenge_expired');
  });

  it('a recovery code signs in once; the codes can be regenerated with a current code, and the old ones stop working', async () => {
    const admin = await t.makeUser('admin');
    const { secret, recoveryCodes } = await enrol(admin);
    const [firstCode = '', secondCode = ''] = recoveryCodes;
    const one = (await login(admin)).json<{ challenge: string }>();
    // Typed in capitals and without the dash: the same code.
    const signedIn = await verify(one.challenge, firstCode.replace('-', '').toUpperCase());
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    const two = (await login(admin)).json<{ challenge: string }>();
    expect(codeOf(await verify(two.challenge, firstCode))).toBe('two_factor_code_wrong');
    expect((await t.request({ method: 'GET', url: '/api/me/two-factor', as: admin })).json()).toMatchObject({ recoveryCodesLeft: 9 });

    // Regenerating needs a current code from the app; a recovery code does not do.
    expect(codeOf(await t.request({ method: 'POST', url: '/api/me/two-factor/recovery-codes', as: admin, payload: { code: secondCode } }))).toBe('two_factor_code_wrong');
    const fresh = await t.request({ method: 'POST', url: '/api/me/two-factor/recovery-codes', as: admin, payload: { code: await codeAt(secret) } });
    expect(fresh.statusCode, fresh.body).toBe(200);
    const newCodes = (fresh.json<{ recoveryCodes: string[] }>()).recoveryCodes;
    expect(newCodes).toHaveLength(10);
    expect(codeOf(await verify(two.challenge, secondCode))).toBe('two_factor_code_wrong');
    expect((await verify(two.challenge, newCodes[0] ?? '')).statusCode).toBe(200);
  });

  it('riders and drivers cannot enrol; the other routes answer not_logged_in without a session', async () => {
    for (const usertype of ['rider', 'driver'] as const) {
      const user = await t.makeUser(usertype);
      for (const url of ['/api/me/two-factor/start', '/api/me/two-factor/confirm']) {
        const response = await t.request({ method: 'POST', url, as: user, payload: { code: '123456' } });
        expect([response.statusCode, codeOf(response)]).toEqual([403, 'forbidden']);
      }
      expect(codeOf(await t.request({ method: 'GET', url: '/api/me/two-factor', as: user }))).toBe('forbidden');
      // A rider's sign-in never asks for a second step, whatever the setting.
      await t.setSettings({ FacebookLoginEnabled: true, GoogleLoginEnabled: true, RequireStaffTwoFactor: true });
      expect(Object.keys((await login(user)).json<object>()).sort()).toEqual(['token', 'user']);
      await t.setSettings({ FacebookLoginEnabled: true, GoogleLoginEnabled: true });
    }
    expect(codeOf(await t.request({ method: 'POST', url: '/api/me/two-factor/start' }))).toBe('not_logged_in');
  });

  it("refuses another user's challenge with one's own code, an unknown one, and an expired one", async () => {
    const alice = await t.makeUser('admin');
    const bob = await t.makeUser('admin');
    const aliceSecret = (await enrol(alice)).secret;
    const bobSecret = (await enrol(bob)).secret;
    // Bob holds Alice's challenge (stolen): his own code does not open it.
    const stolen = (await login(alice)).json<{ challenge: string }>();
    expect(codeOf(await verify(stolen.challenge, await codeAt(bobSecret)))).toBe('two_factor_code_wrong');
    expect(codeOf(await verify('not-a-challenge', await codeAt(aliceSecret)))).toBe('two_factor_challenge_expired');
    const missing = await verify(undefined, await codeAt(aliceSecret));
    expect([missing.statusCode, codeOf(missing)]).toEqual([400, 'two_factor_challenge_expired']);
    // Five minutes later the challenge is void.
    t.advance(5 * 60 * 1000 + 1000);
    expect(codeOf(await verify(stolen.challenge, await codeAt(aliceSecret)))).toBe('two_factor_challenge_expired');
    expect(await t.db.select().from(twoFactorChallenges).where(eq(twoFactorChallenges.uid, alice.id))).toHaveLength(1);
  });

  it('counts wrong codes per user over challenges: the 11th answers 429 with Retry-After, even with the right code', async () => {
    const admin = await t.makeUser('admin');
    const { secret } = await enrol(admin);
    const right = await codeAt(secret);
    const wrongCode = right === '123456' ? '654321' : '123456';
    for (let i = 0; i < 10; i += 1) {
      // A new challenge every 5 tries: the per-challenge limit is not what stops this.
      const { challenge } = (await login(admin)).json<{ challenge: string }>();
      expect(codeOf(await verify(challenge, wrongCode))).toBe('two_factor_code_wrong');
    }
    const { challenge } = (await login(admin)).json<{ challenge: string }>();
    const locked = await verify(challenge, right);
    expect([locked.statusCode, codeOf(locked)]).toEqual([429, 'too_many_requests']);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(locked.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);
    // Disabling and regenerating are locked alike.
    expect((await t.request({ method: 'POST', url: '/api/me/two-factor/recovery-codes', as: admin, payload: { code: right } })).statusCode).toBe(429);
    t.advance(15 * 60 * 1000);
    const fresh = (await login(admin)).json<{ challenge: string }>();
    expect((await verify(fresh.challenge, await codeAt(secret))).statusCode).toBe(200);
  });

  it('the SMS code is a first factor only: a staff member with an authenticator is asked for its code', async () => {
    const admin = await t.makeUser('admin');
    const { secret } = await enrol(admin);
    const requested = await t.request({ method: 'POST', url: '/api/auth/otp/request', payload: { mobile: admin.mobile } });
    expect(requested.statusCode, requested.body).toBe(200);
    const { verificationId } = requested.json<{ verificationId: string }>();
    const sent = (await t.db.select().from(outbox).where(eq(outbox.recipient, admin.mobile ?? ''))).at(-1);
    const otp = /(\d{6})/.exec(String((sent?.payload as { text?: string } | undefined)?.text))?.[1] ?? '';
    const answer = await t.request({ method: 'POST', url: '/api/auth/otp/verify', payload: { verificationId, otp } });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toMatchObject({ twoFactorRequired: true, enrol: false });
    expect(answer.cookies.find((cookie) => cookie.name === 'rideway_session')).toBeUndefined();
    expect((await verify((answer.json<{ challenge: string }>()).challenge, await codeAt(secret))).statusCode).toBe(200);
  });

  it('Facebook and Google sign-in of an enrolled staff member land on /login/2fa with the challenge in a cookie, not a session', async () => {
    const admin = await t.makeUser('admin');
    await t.db.update(users).set({ googleId: `google-sub-${engine}` }).where(eq(users.id, admin.id));
    const { secret } = await enrol(admin);
    graph.people.set('code-admin', { id: '20002', email: admin.email ?? '' });

    const start = await t.request({ method: 'GET', url: '/api/auth/facebook' });
    const state = new URL(start.headers.location as string).searchParams.get('state') ?? '';
    const back = await t.request({ method: 'GET', url: `/api/auth/facebook/callback?code=code-admin&state=${state}`, headers: { cookie: `rideway_oauth_state=${state}` } });
    expect([back.statusCode, back.headers.location]).toEqual([302, '/login/2fa']);
    expect(back.cookies.find((cookie) => cookie.name === 'rideway_session')).toBeUndefined();
    const facebookChallenge = back.cookies.find((cookie) => cookie.name === 'rideway_2fa');
    expect(facebookChallenge).toMatchObject({ httpOnly: true, path: '/api/auth/2fa' });
    const done = await verify(undefined, await codeAt(secret), `rideway_2fa=${facebookChallenge?.value}`);
    expect(done.statusCode, done.body).toBe(200);
    nextStep();

    // Google, returning to the page asked for once the code is in.
    const started = await t.request({ method: 'GET', url: `/api/auth/google/start?next=${encodeURIComponent('/admin/users')}` });
    const authorization = new URL(started.headers.location as string);
    const browser = started.cookies.find((cookie) => cookie.name === 'rideway_social')?.value ?? '';
    const code = provider.grant('google', authorization, { sub: `google-sub-${engine}`, email: admin.email ?? '', email_verified: true });
    const google = await t.request({ method: 'GET', url: `/api/auth/google/callback?code=${code}&state=${authorization.searchParams.get('state') ?? ''}`, headers: { cookie: `rideway_social=${browser}` } });
    expect([google.statusCode, google.headers.location]).toEqual([302, '/login/2fa']);
    expect(google.cookies.find((cookie) => cookie.name === 'rideway_session')).toBeUndefined();
    const googleChallenge = google.cookies.find((cookie) => cookie.name === 'rideway_2fa')?.value;
    const landed = await verify(undefined, await codeAt(secret), `rideway_2fa=${googleChallenge}`);
    expect(landed.statusCode, landed.body).toBe(200);
    expect((landed.json<{ landing: string }>()).landing).toBe('/admin/users');
  });

  it('RequireStaffTwoFactor: a staff member without an authenticator enrols at sign-in before any session, and cannot turn it off', async () => {
    const fleet = await t.makeUser('fleetadmin');
    await t.setSettings({ FacebookLoginEnabled: true, GoogleLoginEnabled: true, RequireStaffTwoFactor: true });
    try {
      const before = await sessionsOf(fleet);
      const first = (await login(fleet)).json<{ challenge: string; enrol: boolean }>();
      expect(first).toMatchObject({ twoFactorRequired: true, enrol: true });
      // No code exists yet: the challenge first adds an authenticator.
      expect(codeOf(await verify(first.challenge, '123456'))).toBe('two_factor_not_started');
      const enrolment = await t.request({ method: 'POST', url: '/api/auth/2fa/enrol', payload: { challenge: first.challenge } });
      expect(enrolment.statusCode, enrolment.body).toBe(200);
      const { secret } = enrolment.json<{ secret: string }>();
      expect(await sessionsOf(fleet)).toBe(before);
      const done = await verify(first.challenge, await codeAt(secret));
      expect(done.statusCode, done.body).toBe(200);
      expect((done.json<{ recoveryCodes: string[] }>()).recoveryCodes).toHaveLength(10);
      expect(await sessionsOf(fleet)).toBe(before + 1);
      expect((await t.request({ method: 'GET', url: '/api/me/two-factor', as: fleet })).json()).toMatchObject({ enabled: true, required: true });
      // From now on a code, as for anyone enrolled.
      nextStep();
      expect((await login(fleet)).json()).toMatchObject({ twoFactorRequired: true, enrol: false });
      const refused = await t.request({ method: 'POST', url: '/api/me/two-factor/disable', as: fleet, payload: { code: await codeAt(secret) } });
      expect([refused.statusCode, codeOf(refused)]).toEqual([409, 'two_factor_required']);
      // An enrolment challenge is only for one without an authenticator.
      const other = (await login(fleet)).json<{ challenge: string }>();
      expect(codeOf(await t.request({ method: 'POST', url: '/api/auth/2fa/enrol', payload: { challenge: other.challenge } }))).toBe('two_factor_already_enabled');
    } finally {
      await t.setSettings({ FacebookLoginEnabled: true, GoogleLoginEnabled: true });
    }
  });

  it('turns off with a current code or the password, and sign-in is one step again', async () => {
    const admin = await t.makeUser('admin');
    const { secret } = await enrol(admin);
    const badPassword = await t.request({ method: 'POST', url: '/api/me/two-factor/disable', as: admin, payload: { password: 'wrong1' } });
    expect([badPassword.statusCode, codeOf(badPassword)]).toEqual([400, 'wrong_current_password']);
    expect(codeOf(await t.request({ method: 'POST', url: '/api/me/two-factor/disable', as: admin, payload: {} }))).toBe('two_factor_code_wrong');
    expect((await t.request({ method: 'POST', url: '/api/me/two-factor/disable', as: admin, payload: { password: PASSWORD } })).statusCode).toBe(204);
    expect(Object.keys((await login(admin)).json<object>()).sort()).toEqual(['token', 'user']);
    expect(await t.db.select().from(twoFactor).where(eq(twoFactor.uid, admin.id))).toEqual([]);

    const again = await enrol(admin);
    expect(again.secret).not.toBe(secret);
    const off = await t.request({ method: 'POST', url: '/api/me/two-factor/disable', as: admin, payload: { code: await codeAt(again.secret) } });
    expect(off.statusCode, off.body).toBe(204);
    expect(codeOf(await t.request({ method: 'POST', url: '/api/me/two-factor/disable', as: admin, payload: { password: PASSWORD } }))).toBe('two_factor_not_enabled');
  });

  it('wrong codes sent at once for one challenge are judged one after another: the challenge never takes more than 5', async () => {
    const admin = await t.makeUser('fleetadmin');
    const { secret } = await enrol(admin);
    const { challenge } = (await login(admin)).json<{ challenge: string }>();
    const right = await codeAt(secret);
    const wrongCode = right === '123456' ? '654321' : '123456';
    const answers = await Promise.all(Array.from({ length: 8 }, () => verify(challenge, wrongCode)));
    const codes = answers.map(codeOf).sort();
    expect(codes.filter((code) => code === 'two_factor_code_wrong')).toHaveLength(5);
    expect(codes.filter((code) => code === 'two_factor_challenge_expired')).toHaveLength(3);
    const [row] = await t.db.select().from(twoFactorChallenges).where(eq(twoFactorChallenges.uid, admin.id));
    expect(row?.failedAttempts).toBe(5);
    // Exactly the five judged count against the user too.
    expect((await t.db.select().from(twoFactor).where(eq(twoFactor.uid, admin.id)))[0]?.failedCount).toBe(5);
    expect(codeOf(await verify(challenge, right))).toBe('two_factor_challenge_expired');
  });

  it('wrong passwords sent at once to turn it off are each counted, and the 11th is refused with 429 unchecked', async () => {
    const admin = await t.makeUser('admin');
    await enrol(admin);
    const answers = await Promise.all(Array.from({ length: 12 }, () => t.request({ method: 'POST', url: '/api/me/two-factor/disable', as: admin, payload: { password: 'wrong-password' } })));
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses).toEqual([...Array(10).fill(400), 429, 429]);
    expect((await t.db.select().from(twoFactor).where(eq(twoFactor.uid, admin.id)))[0]?.failedCount).toBe(10);
    // Locked: even the right password does not turn it off now.
    const right = await t.request({ method: 'POST', url: '/api/me/two-factor/disable', as: admin, payload: { password: PASSWORD } });
    expect(right.statusCode).toBe(429);
    expect(Number(right.headers['retry-after'])).toBeGreaterThan(0);
    expect(await t.db.select().from(twoFactor).where(eq(twoFactor.uid, admin.id))).toHaveLength(1);
  });

  it("an admin resets a fleet admin's lost authenticator with a reason: it is told, signed out, and signs in with the password alone", async () => {
    const admin = await t.makeUser('admin');
    const fleet = await t.makeUser('fleetadmin');
    await enrol(fleet);
    const { challenge } = (await login(fleet)).json<{ challenge: string }>();
    expect(await sessionsOf(fleet)).toBeGreaterThan(0);
    const reset = (as: UserRow, id: string, payload: object) => t.request({ method: 'POST', url: `/api/users/${id}/two-factor/reset`, as, payload });
    // A reason is required; it is checked before anything changes.
    for (const payload of [{}, { reason: ' x ' }, { reason: 'y'.repeat(501) }]) {
      const refused = await reset(admin, fleet.id, payload);
      expect([refused.statusCode, codeOf(refused)]).toEqual([400, 'two_factor_reset_reason_required']);
    }
    expect(await t.db.select().from(twoFactor).where(eq(twoFactor.uid, fleet.id))).toHaveLength(1);
    const done = await reset(admin, fleet.id, { reason: 'Lost phone, ticket 4411' });
    expect(done.statusCode, done.body).toBe(204);
    expect(await t.db.select().from(twoFactor).where(eq(twoFactor.uid, fleet.id))).toEqual([]);
    expect(await t.db.select().from(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.uid, fleet.id))).toEqual([]);
    expect(await sessionsOf(fleet)).toBe(0);
    // The pending sign-in's challenge went with it.
    expect(codeOf(await verify(challenge, '123456'))).toBe('two_factor_challenge_expired');
    const told = (await t.db.select().from(outbox)).filter((message) => message.recipient === fleet.email || message.recipient === fleet.id);
    expect(told.map((message) => message.channel).sort()).toEqual(['mail', 'push']);
    expect(JSON.stringify(told[0]?.payload)).toContain('Lost phone, ticket 4411');
    expect(Object.keys((await login(fleet)).json<object>()).sort()).toEqual(['token', 'user']);
    // Again: nothing left to reset.
    expect(codeOf(await reset(admin, fleet.id, { reason: 'Lost phone again' }))).toBe('two_factor_not_enabled');
  });

  it('the reset is refused for the own account, to fleet admins, for riders and drivers, and for someone unknown', async () => {
    const admin = await t.makeUser('admin');
    const other = await t.makeUser('admin');
    const fleet = await t.makeUser('fleetadmin');
    const rider = await t.makeUser('rider');
    const driver = await t.makeUser('driver');
    await enrol(admin);
    await enrol(other);
    const reset = (as: UserRow, id: string) => t.request({ method: 'POST', url: `/api/users/${id}/two-factor/reset`, as, payload: { reason: 'Lost phone' } });
    // A stolen session alone must not undo the owner's second factor.
    expect([(await reset(admin, admin.id)).statusCode, codeOf(await reset(admin, admin.id))]).toEqual([409, 'two_factor_reset_own']);
    // A fleet admin may not, not even on another staff member; nor riders and drivers.
    for (const caller of [fleet, rider, driver]) expect((await reset(caller, other.id)).statusCode).toBe(403);
    expect((await t.request({ method: 'POST', url: `/api/users/${other.id}/two-factor/reset`, payload: { reason: 'Lost phone' } })).statusCode).toBe(401);
    // Riders and drivers have no second factor: they look missing, like an unknown id.
    for (const id of [rider.id, driver.id, 'no-such-user']) expect([(await reset(admin, id)).statusCode, codeOf(await reset(admin, id))]).toEqual([404, 'not_found']);
    expect(await t.db.select().from(twoFactor).where(eq(twoFactor.uid, other.id))).toHaveLength(1);
    // Another admin may.
    expect((await reset(admin, other.id)).statusCode).toBe(204);
    const third = await t.makeUser('fleetadmin');
    await enrol(third);
    await t.setSettings({ AllowCriticalEditsAdmin: false });
    try {
      expect([(await reset(admin, third.id)).statusCode, codeOf(await reset(admin, third.id))]).toEqual([403, 'demo_mode']);
      expect(await t.db.select().from(twoFactor).where(eq(twoFactor.uid, third.id))).toHaveLength(1);
    } finally {
      await t.setSettings({ AllowCriticalEditsAdmin: true });
    }
  });

  it('in demo mode no one can bind, renew or drop an authenticator: a published demo login cannot lock the others out', async () => {
    const admin = await t.makeUser('admin');
    const { secret } = await enrol(admin);
    const fleet = await t.makeUser('fleetadmin');
    await t.setSettings({ AllowCriticalEditsAdmin: false });
    try {
      const calls = [
        await t.request({ method: 'POST', url: '/api/me/two-factor/start', as: fleet }),
        await t.request({ method: 'POST', url: '/api/me/two-factor/confirm', as: fleet, payload: { code: '123456' } }),
        await t.request({ method: 'POST', url: '/api/me/two-factor/recovery-codes', as: admin, payload: { code: await codeAt(secret) } }),
        await t.request({ method: 'POST', url: '/api/me/two-factor/disable', as: admin, payload: { password: PASSWORD } }),
      ];
      expect(calls.map((call) => [call.statusCode, codeOf(call)])).toEqual(Array(4).fill([403, 'demo_mode']));
      expect(await t.db.select().from(twoFactor).where(eq(twoFactor.uid, fleet.id))).toEqual([]);
    } finally {
      await t.setSettings({ AllowCriticalEditsAdmin: true });
    }
  });
});

describe.each(ENGINES)('the second step under its address limit on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(engine, { RATE_LIMIT_OVERRIDES: 'two-factor-sign-in.address=3/15m, two-factor.user=2/15m' });
  });
  afterAll(() => t.close());

  it('answers 429 with Retry-After past the limit, per address and per user', async () => {
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 4; i += 1) {
      last = await t.request({ method: 'POST', url: '/api/auth/2fa/verify', remoteAddress: '198.51.100.7', payload: { challenge: 'x', code: '123456' } });
      statuses.push(last.statusCode);
    }
    expect(statuses).toEqual([400, 400, 400, 429]);
    expect(Number(last?.headers['retry-after'])).toBeGreaterThan(0);
    const admin = await t.makeUser('admin');
    const enrols = [];
    for (let i = 0; i < 3; i += 1) enrols.push((await t.request({ method: 'POST', url: '/api/me/two-factor/start', as: admin })).statusCode);
    expect(enrols).toEqual([200, 200, 429]);
  });
});
