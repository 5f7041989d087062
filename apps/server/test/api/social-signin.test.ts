import { eq } from 'drizzle-orm';
import { exportPKCS8, generateKeyPair, type CryptoKey } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { sessions, socialSignIns, users } from '../../src/db/schema';
import { createTestApp, ENGINES, type TestApp } from '../harness';
import { startOidcStandIn, type OidcStandIn, type Person } from '../oidc-stand-in';

/**
 * Issue 20, point 1: sign-in with Google and with Apple against a local OpenID provider
 * (oidc-stand-in.ts), on both engines: new, returning and linked users, and every refusal
 * ending at /login with nothing stored.
 */
const GOOGLE = { id: 'rideway-google-client.apps.googleusercontent.com', secret: 'google-client-secret-for-tests' };
const APPLE = { clientId: 'com.rideway.signin', teamId: 'TEAM123456', keyId: 'KEY1234567' };
const PUBLIC_URL = 'http://rideway.test';

let appleKeys: { privateKeyPem: string; publicKey: CryptoKey };

beforeAll(async () => {
  const pair = await generateKeyPair('ES256', { extractable: true });
  appleKeys = { privateKeyPem: await exportPKCS8(pair.privateKey), publicKey: pair.publicKey };
});

describe('configuration of Google and Apple sign-in', () => {
  it('takes the Apple key with \\n-escaped line breaks, defaults the issuers, and wants each client whole', () => {
    const escaped = appleKeys.privateKeyPem.replace(/\n/g, '\\n');
    const config = loadConfig({ APPLE_CLIENT_ID: APPLE.clientId, APPLE_TEAM_ID: APPLE.teamId, APPLE_KEY_ID: APPLE.keyId, APPLE_PRIVATE_KEY: escaped });
    expect(config.APPLE_PRIVATE_KEY).toBe(appleKeys.privateKeyPem.trim());
    expect(config.APPLE_ISSUER).toBe('https://appleid.apple.com');
    expect(config.GOOGLE_ISSUER).toBe('https://accounts.google.com');
    expect(() => loadConfig({ GOOGLE_CLIENT_ID: GOOGLE.id })).toThrow(/GOOGLE_CLIENT_SECRET/);
    expect(() => loadConfig({ APPLE_CLIENT_ID: APPLE.clientId, APPLE_TEAM_ID: APPLE.teamId })).toThrow(/APPLE_KEY_ID.*APPLE_PRIVATE_KEY|APPLE_PRIVATE_KEY/);
    expect(() => loadConfig({ APPLE_PRIVATE_KEY: 'not a key', APPLE_CLIENT_ID: 'x', APPLE_TEAM_ID: 'T', APPLE_KEY_ID: 'K' })).toThrow(/PKCS#8/);
  });
});

describe.each(ENGINES)('sign-in with Google and Apple on %s (issue 20)', (engine) => {
  let t: TestApp;
  let provider: OidcStandIn;
  beforeAll(async () => {
    provider = await startOidcStandIn({ googleClient: GOOGLE, appleClient: { ...APPLE, ...appleKeys } });
    t = await createTestApp(engine, {
      PUBLIC_URL,
      GOOGLE_CLIENT_ID: GOOGLE.id,
      GOOGLE_CLIENT_SECRET: GOOGLE.secret,
      GOOGLE_ISSUER: provider.issuer('google'),
      APPLE_CLIENT_ID: APPLE.clientId,
      APPLE_TEAM_ID: APPLE.teamId,
      APPLE_KEY_ID: APPLE.keyId,
      APPLE_PRIVATE_KEY: appleKeys.privateKeyPem,
      APPLE_ISSUER: provider.issuer('apple'),
      SOCIAL_SIGN_IN_TIMEOUT_MS: '1000',
      // The limit has a test of its own below.
      RATE_LIMIT_OVERRIDES: 'social-sign-in.address=1000/1h',
    });
    await t.setSettings({ GoogleLoginEnabled: true, AppleLoginEnabled: true });
  });
  afterAll(async () => {
    await t.close();
    await provider.close();
  });
  beforeEach(() => {
    provider.trouble.now = 'none';
  });

  const cookieOf = (response: { cookies: { name: string; value: string }[] }, name: string) => response.cookies.find((cookie) => cookie.name === name);

  async function start(which: 'google' | 'apple', next?: string) {
    const response = await t.request({ method: 'GET', url: `/api/auth/${which}/start${next === undefined ? '' : `?next=${encodeURIComponent(next)}`}` });
    expect(response.statusCode).toBe(302);
    const authorization = new URL(response.headers.location as string);
    const browser = cookieOf(response, 'rideway_social');
    return { response, authorization, browser: browser?.value ?? '', state: authorization.searchParams.get('state') ?? '' };
  }

  /** The provider's answer reaching our callback: Google's by a GET, Apple's by a cross-site form post. */
  async function callback(which: 'google' | 'apple', fields: Record<string, string>, browser: string | undefined) {
    const headers: Record<string, string> = browser === undefined ? {} : { cookie: `rideway_social=${browser}` };
    if (which === 'google') return t.request({ method: 'GET', url: `/api/auth/google/callback?${new URLSearchParams(fields).toString()}`, headers });
    return t.request({
      method: 'POST',
      url: '/api/auth/apple/callback',
      // Apple's page posts the form: the browser says it comes from Apple's origin.
      headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded', origin: new URL(provider.url).origin },
      payload: new URLSearchParams(fields).toString(),
    });
  }

  /** The whole round trip: start, the person signs in at the provider, the answer comes back. */
  async function signIn(which: 'google' | 'apple', person: Person, options: { next?: string; extra?: Record<string, string> } = {}) {
    const started = await start(which, options.next);
    const code = provider.grant(which, started.authorization, person);
    return callback(which, { code, state: started.state, ...options.extra }, started.browser);
  }

  const meOf = async (response: { cookies: { name: string; value: string }[] }) => {
    const session = cookieOf(response, 'rideway_session');
    return (await t.request({ method: 'GET', url: '/api/me', headers: { cookie: `rideway_session=${session?.value}` } })).json().user as Record<string, unknown>;
  };
  const countOf = async (table: typeof users | typeof sessions) => (await t.db.select().from(table)).length;

  it('offers both when their settings are on and the server holds their clients', async () => {
    expect((await t.request({ method: 'GET', url: '/api/auth/methods' })).json()).toMatchObject({ google: true, apple: true });
    expect((await t.request({ method: 'GET', url: '/api/settings' })).json().settings).toMatchObject({ GoogleLoginEnabled: true, AppleLoginEnabled: true });
  });

  it("sends the browser to Google's page with the client, our callback, state, nonce and PKCE S256, and keeps them server-side", async () => {
    const { authorization, browser, response, state } = await start('google');
    expect(authorization.origin + authorization.pathname).toBe(`${provider.issuer('google')}/auth`);
    expect(Object.fromEntries(authorization.searchParams)).toMatchObject({
      client_id: GOOGLE.id,
      redirect_uri: `${PUBLIC_URL}/api/auth/google/callback`,
      response_type: 'code',
      scope: 'openid email profile',
      code_challenge_method: 'S256',
    });
    expect(state).toMatch(/^[\w-]{32,}$/);
    expect(authorization.searchParams.get('nonce')).toMatch(/^[\w-]{32,}$/);
    expect(authorization.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    // The browser holds a random token only (httpOnly, Lax over plain http); the verifier stays here.
    expect(cookieOf(response, 'rideway_social')).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/api/auth' });
    expect(browser).not.toBe(state);
    const rows = await t.db.select().from(socialSignIns);
    expect(rows.some((row) => row.codeVerifier.length >= 43 && row.provider === 'google')).toBe(true);
    expect(rows.some((row) => row.stateHash === state)).toBe(false);
  });

  it("sends Apple's flow as a form post; over https the browser's cookie is SameSite=None and Secure so Apple's post carries it", async () => {
    const { authorization } = await start('apple');
    expect(Object.fromEntries(authorization.searchParams)).toMatchObject({ client_id: APPLE.clientId, redirect_uri: `${PUBLIC_URL}/api/auth/apple/callback`, response_mode: 'form_post', scope: 'openid name email' });
    const https = await t.request({ method: 'GET', url: '/api/auth/apple/start', headers: { 'x-forwarded-proto': 'https' } });
    // Without TRUST_PROXY the forwarded scheme is not believed: still Lax.
    expect(cookieOf(https, 'rideway_social')).toMatchObject({ sameSite: 'Lax' });
  });

  it('signs up a new Google user as an approved rider with a zero wallet (section 5), loginType google, and signs them in', async () => {
    const before = await countOf(users);
    const response = await signIn('google', { sub: 'g-1001', email: 'Gina.Google@Example.com', email_verified: true, given_name: 'Gina', family_name: 'Google' });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/');
    expect(cookieOf(response, 'rideway_session')).toMatchObject({ httpOnly: true });
    expect(await countOf(users)).toBe(before + 1);
    expect(await meOf(response)).toMatchObject({ usertype: 'rider', approved: true, walletBalance: 0, firstName: 'Gina', lastName: 'Google', email: 'gina.google@example.com', loginType: 'google' });
    // The token request carried the PKCE verifier and the client's secret.
    const exchange = provider.tokenRequests.at(-1);
    expect(exchange).toMatchObject({ provider: 'google', client_id: GOOGLE.id, client_secret: GOOGLE.secret, grant_type: 'authorization_code' });
    expect(exchange?.code_verifier).toMatch(/^[\w-]{43,}$/);
  });

  it('two first sign-ins of one person at once (two tabs) make one account, and both are signed in to it', async () => {
    const person = { sub: 'g-race-1', email: 'race.twice@example.com', email_verified: true, given_name: 'Rae', family_name: 'Twice' };
    const before = await countOf(users);
    const [first, second] = await Promise.all([signIn('google', person), signIn('google', person)]);
    expect([first.statusCode, second.statusCode]).toEqual([302, 302]);
    expect([first.headers.location, second.headers.location]).toEqual(['/', '/']);
    expect(await countOf(users)).toBe(before + 1);
    expect((await meOf(first)).id).toBe((await meOf(second)).id);
  });

  it('signs a returning Google user into the same account, and goes to the page asked for (a path of this site only)', async () => {
    const first = await signIn('google', { sub: 'g-1002', email: 'ret@example.com', email_verified: true, given_name: 'Ret' });
    const id = (await meOf(first)).id;
    const before = await countOf(users);
    const again = await signIn('google', { sub: 'g-1002', email: 'ret@example.com', email_verified: true }, { next: '/bookings?tab=2' });
    expect(again.headers.location).toBe('/bookings?tab=2');
    expect((await meOf(again)).id).toBe(id);
    expect(await countOf(users)).toBe(before);
    // Never an open redirect: another site, a scheme-relative path, /login or a screen of another role.
    for (const next of ['https://evil.example/', '//evil.example/x', '/\\evil.example', '/login', '/dashboard']) {
      expect((await signIn('google', { sub: 'g-1002', email_verified: true }, { next })).headers.location).toBe('/');
    }
  });

  it('signs up a new Apple user with the name Apple posts once, loginType apple, the client secret a short ES256 JWT Apple checks', async () => {
    const response = await signIn('apple', { sub: '001234.apple.a1', email: 'anna@privaterelay.appleid.com', email_verified: 'true' }, { extra: { user: JSON.stringify({ name: { firstName: 'Anna', lastName: 'Apple' }, email: 'anna@privaterelay.appleid.com' }) } });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/');
    expect(await meOf(response)).toMatchObject({ usertype: 'rider', approved: true, walletBalance: 0, firstName: 'Anna', lastName: 'Apple', email: 'anna@privaterelay.appleid.com', loginType: 'apple' });
    const secret = provider.appleSecrets.at(-1);
    expect(secret?.header).toMatchObject({ alg: 'ES256', kid: APPLE.keyId });
    expect(secret?.payload).toMatchObject({ iss: APPLE.teamId, sub: APPLE.clientId, aud: provider.issuer('apple') });
    expect(Number(secret?.payload.exp) - Number(secret?.payload.iat)).toBeLessThanOrEqual(600);
    // Apple's discovery offers no PKCE: none is sent.
    expect(provider.tokenRequests.at(-1)?.code_verifier).toBeUndefined();
    // Returning (Apple sends no name then): the same account, the name kept.
    const again = await signIn('apple', { sub: '001234.apple.a1', email: 'anna@privaterelay.appleid.com', email_verified: true });
    expect(await meOf(again)).toMatchObject({ firstName: 'Anna', loginType: 'apple' });
  });

  it('refuses a client secret signed by another key at the stand-in: the sign-in fails, nothing stored', async () => {
    const other = await generateKeyPair('ES256', { extractable: true });
    const wrong = await createTestApp(engine, {
      PUBLIC_URL,
      APPLE_CLIENT_ID: APPLE.clientId,
      APPLE_TEAM_ID: APPLE.teamId,
      APPLE_KEY_ID: APPLE.keyId,
      APPLE_PRIVATE_KEY: await exportPKCS8(other.privateKey),
      APPLE_ISSUER: provider.issuer('apple'),
    });
    try {
      await wrong.setSettings({ AppleLoginEnabled: true });
      const started = await wrong.request({ method: 'GET', url: '/api/auth/apple/start' });
      const authorization = new URL(started.headers.location as string);
      const code = provider.grant('apple', authorization, { sub: 'apple-wrong-key', email: 'w@example.com', email_verified: true });
      const answer = await wrong.request({
        method: 'POST',
        url: '/api/auth/apple/callback',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `rideway_social=${cookieOf(started, 'rideway_social')?.value}` },
        payload: new URLSearchParams({ code, state: authorization.searchParams.get('state') ?? '' }).toString(),
      });
      expect(answer.headers.location).toBe('/login?error=login_error');
      expect(await wrong.db.select().from(users).where(eq(users.appleId, 'apple-wrong-key'))).toHaveLength(0);
    } finally {
      await wrong.close();
    }
  });

  it('links to an existing account only when the provider and the account both have the email verified', async () => {
    const rider = await t.makeUser('rider', { emailVerified: true });
    const linked = await signIn('google', { sub: 'g-link-1', email: rider.email ?? '', email_verified: true, given_name: 'Someone' });
    expect(linked.headers.location).toBe('/');
    expect(await meOf(linked)).toMatchObject({ id: rider.id, firstName: rider.firstName, loginType: rider.loginType });
    expect((await t.db.select().from(users).where(eq(users.id, rider.id)))[0]?.googleId).toBe('g-link-1');
  });

  it('refuses to link when either side has the email unverified (social_email_unverified), storing nothing', async () => {
    const unverifiedHere = await t.makeUser('rider', { emailVerified: false });
    const verifiedHere = await t.makeUser('driver', { emailVerified: true });
    const users0 = await countOf(users);
    const sessions0 = await countOf(sessions);
    const cases: [string, Person][] = [
      [unverifiedHere.id, { sub: 'g-unv-1', email: unverifiedHere.email ?? '', email_verified: true }],
      [verifiedHere.id, { sub: 'g-unv-2', email: verifiedHere.email ?? '', email_verified: false }],
      [verifiedHere.id, { sub: 'g-unv-3', email: verifiedHere.email ?? '' }],
    ];
    for (const [id, person] of cases) {
      const response = await signIn('google', person);
      expect(response.headers.location).toBe('/login?error=social_email_unverified');
      expect(cookieOf(response, 'rideway_session')).toBeUndefined();
      expect((await t.db.select().from(users).where(eq(users.id, id)))[0]?.googleId).toBeNull();
    }
    // Apple the same way.
    expect((await signIn('apple', { sub: 'apple-unv', email: unverifiedHere.email ?? '', email_verified: 'true' })).headers.location).toBe('/login?error=social_email_unverified');
    expect(await countOf(users)).toBe(users0);
    expect(await countOf(sessions)).toBe(sessions0);
  });

  it('signs up a person whose unverified email no account uses, without claiming that email', async () => {
    const response = await signIn('google', { sub: 'g-unv-new', email: 'nobody-yet@example.com', email_verified: false, given_name: 'Nob' });
    expect(response.headers.location).toBe('/');
    // The user view writes a missing email as ''.
    expect(await meOf(response)).toMatchObject({ firstName: 'Nob', lastName: ' ', email: '', loginType: 'google' });
    expect((await t.db.select().from(users).where(eq(users.googleId, 'g-unv-new')))[0]).toMatchObject({ email: null, emailVerified: false });
  });

  it('refuses a forged, missing, reused, expired or another browser\'s state at /login, storing nothing', async () => {
    const person: Person = { sub: 'g-forged', email: 'forged@example.com', email_verified: true };
    const users0 = await countOf(users);
    const sessions0 = await countOf(sessions);
    const fresh = async () => {
      const started = await start('google');
      return { ...started, code: provider.grant('google', started.authorization, person) };
    };
    let s = await fresh();
    expect((await callback('google', { code: s.code, state: 'forged-state-value' }, s.browser)).headers.location).toBe('/login?error=login_error');
    expect((await callback('google', { code: s.code }, s.browser)).headers.location).toBe('/login?error=login_error');
    // Another browser (no cookie, or another's) cannot finish it; and the try used it up.
    s = await fresh();
    expect((await callback('google', { code: s.code, state: s.state }, undefined)).headers.location).toBe('/login?error=login_error');
    expect((await callback('google', { code: s.code, state: s.state }, s.browser)).headers.location).toBe('/login?error=login_error');
    s = await fresh();
    const other = await start('google');
    expect((await callback('google', { code: s.code, state: s.state }, other.browser)).headers.location).toBe('/login?error=login_error');
    // Google's state on Apple's callback.
    s = await fresh();
    expect((await callback('apple', { code: s.code, state: s.state }, s.browser)).headers.location).toBe('/login?error=login_error');
    // Expired: ten minutes at the provider's page at most.
    s = await fresh();
    t.advance(11 * 60 * 1000);
    const late = await callback('google', { code: s.code, state: s.state }, s.browser);
    expect(late.headers.location).toBe('/login?error=login_error');
    expect(cookieOf(late, 'rideway_social')?.value).toBe('');
    expect(await countOf(users)).toBe(users0);
    expect(await countOf(sessions)).toBe(sessions0);
    // A used sign-in is gone: its row is deleted as it is read.
    s = await fresh();
    expect((await callback('google', { code: s.code, state: s.state }, s.browser)).headers.location).toBe('/');
    expect((await callback('google', { code: s.code, state: s.state }, s.browser)).headers.location).toBe('/login?error=login_error');
  });

  it('refuses when the person declines at the provider or the code is refused by the token endpoint', async () => {
    const users0 = await countOf(users);
    const declined = await start('google');
    expect((await callback('google', { error: 'access_denied', state: declined.state }, declined.browser)).headers.location).toBe('/login?error=login_error');
    // A code the provider never issued.
    const unknown = await start('google');
    expect((await callback('google', { code: 'never-issued', state: unknown.state }, unknown.browser)).headers.location).toBe('/login?error=login_error');
    provider.trouble.now = 'refuse';
    expect((await signIn('google', { sub: 'g-refused', email_verified: true })).headers.location).toBe('/login?error=login_error');
    provider.trouble.now = 'none';
    expect((await signIn('apple', { sub: 'a-refused' }, { extra: { error: 'user_cancelled_authorize' } })).headers.location).toBe('/login?error=login_error');
    expect(await countOf(users)).toBe(users0);
  });

  it('refuses a provider that is slow, failing or garbled, or an ID token with the wrong audience, issuer, nonce or key', async () => {
    const users0 = await countOf(users);
    for (const trouble of ['slow', 'server-error', 'garbled', 'wrong-audience', 'wrong-issuer', 'wrong-nonce', 'foreign-key'] as const) {
      provider.trouble.now = trouble;
      for (const which of ['google', 'apple'] as const) {
        const response = await signIn(which, { sub: `${which}-${trouble}`, email: `${trouble}@example.com`, email_verified: true });
        expect(response.headers.location, `${which} ${trouble}`).toBe('/login?error=login_error');
        expect(cookieOf(response, 'rideway_session')).toBeUndefined();
      }
    }
    expect(await countOf(users)).toBe(users0);
  }, 30_000);

  it('lets Apple post across sites only to its callback: other posts from another origin are still refused', async () => {
    const other = await t.request({ method: 'POST', url: '/api/auth/login', headers: { origin: 'https://appleid.apple.com', 'content-type': 'application/json' }, payload: { email: 'x@example.com', password: 'secret1' } });
    expect(other.statusCode).toBe(403);
    const apple = await callback('apple', { code: 'x', state: 'y' }, undefined);
    expect(apple.statusCode).toBe(302);
  });

  it('with a setting off the provider is neither offered nor started, nor finished', async () => {
    const pending = await start('google');
    await t.setSettings({ GoogleLoginEnabled: false, AppleLoginEnabled: true });
    try {
      expect((await t.request({ method: 'GET', url: '/api/auth/methods' })).json()).toMatchObject({ google: false, apple: true });
      const refused = await t.request({ method: 'GET', url: '/api/auth/google/start' });
      expect(refused.statusCode).toBe(302);
      expect(refused.headers.location).toBe('/login?error=forbidden');
      expect(cookieOf(refused, 'rideway_social')?.value ?? '').toBe('');
      const code = provider.grant('google', pending.authorization, { sub: 'g-off', email_verified: true });
      expect((await callback('google', { code, state: pending.state }, pending.browser)).headers.location).toBe('/login?error=forbidden');
      expect(await t.db.select().from(users).where(eq(users.googleId, 'g-off'))).toHaveLength(0);
    } finally {
      await t.setSettings({ GoogleLoginEnabled: true, AppleLoginEnabled: true });
    }
  });

  it('without a configured client the provider is off whatever the setting says; an unreachable issuer fails at /login', async () => {
    const bare = await createTestApp(engine, { PUBLIC_URL, GOOGLE_CLIENT_ID: GOOGLE.id, GOOGLE_CLIENT_SECRET: GOOGLE.secret, GOOGLE_ISSUER: 'http://127.0.0.1:9/nothing', SOCIAL_SIGN_IN_TIMEOUT_MS: '500', RATE_LIMIT_OVERRIDES: 'social-sign-in.address=4/1h' });
    try {
      await bare.setSettings({ GoogleLoginEnabled: true, AppleLoginEnabled: true });
      expect((await bare.request({ method: 'GET', url: '/api/auth/methods' })).json()).toMatchObject({ google: true, apple: false });
      expect((await bare.request({ method: 'GET', url: '/api/auth/apple/start' })).headers.location).toBe('/login?error=forbidden');
      expect((await bare.request({ method: 'GET', url: '/api/auth/google/start' })).headers.location).toBe('/login?error=login_error');
      expect(await bare.db.select().from(socialSignIns)).toHaveLength(0);
      // Starts and returns are rate limited per address: 429 with Retry-After.
      expect((await bare.request({ method: 'GET', url: '/api/auth/google/callback?state=x' })).statusCode).toBe(302);
      expect((await bare.request({ method: 'POST', url: '/api/auth/apple/callback', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'state=x' })).statusCode).toBe(302);
      const flooded = await bare.request({ method: 'GET', url: '/api/auth/google/start' });
      expect(flooded.statusCode).toBe(429);
      expect(Number(flooded.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      await bare.close();
    }
  });
});
