import Fastify, { type FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/db/schema';
import { createTestApp, ENGINES, type TestApp } from '../harness';

const APP_ID = '1234567890';
const APP_SECRET = 'facebook-app-secret-for-tests';

type FakeUser = { id: string; first_name?: string; last_name?: string; email?: string };

/**
 * A stand-in for Facebook's Graph API: a code names the Facebook user it signs in, and the token
 * exchange checks the app's id, secret and redirect address as Facebook does.
 */
async function fakeGraph(): Promise<{ url: string; server: FastifyInstance; users: Map<string, FakeUser>; exchanges: Record<string, string>[] }> {
  const server = Fastify();
  const known = new Map<string, FakeUser>();
  const exchanges: Record<string, string>[] = [];
  server.get('/oauth/access_token', async (request, reply) => {
    const query = request.query as Record<string, string>;
    exchanges.push(query);
    if (query.client_id !== APP_ID || query.client_secret !== APP_SECRET || !known.has(query.code ?? '')) {
      return reply.status(400).send({ error: { message: 'Invalid verification code format.', type: 'OAuthException', code: 100 } });
    }
    return { access_token: `token-${query.code}`, token_type: 'bearer', expires_in: 5183944 };
  });
  server.get('/me', async (request, reply) => {
    const query = request.query as Record<string, string>;
    const user = known.get((query.access_token ?? '').replace(/^token-/, ''));
    if (!user || query.fields !== 'id,first_name,last_name,email') return reply.status(400).send({ error: { message: 'bad token' } });
    return user;
  });
  const url = await server.listen({ port: 0, host: '127.0.0.1' });
  return { url, server, users: known, exchanges };
}

describe.each(ENGINES)('sign-in with Facebook on %s (sections 2 and 5)', (engine) => {
  let t: TestApp;
  let graph: Awaited<ReturnType<typeof fakeGraph>>;
  beforeAll(async () => {
    graph = await fakeGraph();
    t = await createTestApp(engine, { FACEBOOK_APP_ID: APP_ID, FACEBOOK_APP_SECRET: APP_SECRET, FACEBOOK_GRAPH_URL: graph.url, FACEBOOK_DIALOG_URL: 'https://dialog.example/oauth', PUBLIC_URL: 'http://rideway.test' });
    await t.setSettings({ FacebookLoginEnabled: true });
  });
  afterAll(async () => {
    await t.close();
    await graph.server.close();
  });

  /** The browser's round trip: our start route, Facebook's dialog (skipped), then our callback. */
  async function roundTrip(code: string, tamper?: (state: string) => string) {
    const start = await t.request({ method: 'GET', url: '/api/auth/facebook' });
    expect(start.statusCode).toBe(302);
    const dialog = new URL(start.headers.location as string);
    const state = dialog.searchParams.get('state') ?? '';
    const cookie = start.cookies.find((c) => c.name === 'rideway_oauth_state');
    expect(cookie).toMatchObject({ value: state, httpOnly: true, path: '/api/auth/facebook' });
    const sent = tamper ? tamper(state) : state;
    return { dialog, callback: await t.request({ method: 'GET', url: `/api/auth/facebook/callback?code=${code}&state=${sent}`, headers: { cookie: `rideway_oauth_state=${state}` } }) };
  }

  it('sends the browser to the login dialog with the app id, our callback and a one-time state', async () => {
    const { dialog } = await roundTrip('unused');
    expect(dialog.origin + dialog.pathname).toBe('https://dialog.example/oauth');
    expect(Object.fromEntries(dialog.searchParams)).toMatchObject({ client_id: APP_ID, redirect_uri: 'http://rideway.test/api/auth/facebook/callback', scope: 'email', response_type: 'code' });
    expect(dialog.searchParams.get('state')).toMatch(/^[\w-]{40,}$/);
    expect((await t.request({ method: 'GET', url: '/api/auth/methods' })).json()).toMatchObject({ facebook: true });
  });

  it('signs up a new Facebook user as an approved rider with a zero wallet, and signs them in', async () => {
    graph.users.set('code-ada', { id: '10001', first_name: 'Ada', last_name: 'Byron', email: 'Ada.Byron@Example.com' });
    const { callback } = await roundTrip('code-ada');
    expect(callback.statusCode).toBe(302);
    // Section 2: a rider lands on the home page.
    expect(callback.headers.location).toBe('/');
    const session = callback.cookies.find((c) => c.name === 'rideway_session');
    expect(session?.httpOnly).toBe(true);
    const me = (await t.request({ method: 'GET', url: '/api/me', headers: { cookie: `rideway_session=${session?.value}` } })).json().user;
    expect(me).toMatchObject({ usertype: 'rider', approved: true, walletBalance: 0, firstName: 'Ada', lastName: 'Byron', email: 'ada.byron@example.com', loginType: 'facebook' });
    expect(me.referralId).toMatch(/^ada\d{4}$/);
    expect(graph.exchanges.at(-1)).toMatchObject({ client_id: APP_ID, redirect_uri: 'http://rideway.test/api/auth/facebook/callback', code: 'code-ada' });
    // The same Facebook user again is the same account.
    graph.users.set('code-ada-2', { id: '10001', first_name: 'Ada', last_name: 'Byron' });
    expect((await roundTrip('code-ada-2')).callback.headers.location).toBe('/');
    expect(await t.db.select().from(users).where(eq(users.facebookId, '10001'))).toHaveLength(1);
  });

  it('fills missing names with a blank space (section 5) and links an account with the same email', async () => {
    graph.users.set('code-anon', { id: '10002' });
    await roundTrip('code-anon');
    const anon = (await t.db.select().from(users).where(eq(users.facebookId, '10002')))[0];
    expect(anon).toMatchObject({ firstName: ' ', lastName: ' ', email: null, usertype: 'rider', approved: true });
    expect(anon?.referralId).toMatch(/^temp\d{4}$/);

    const driver = await t.makeUser('driver', { email: 'dan.fb@example.com' });
    graph.users.set('code-dan', { id: '10003', first_name: 'Dan', email: 'dan.fb@example.com' });
    // Section 2: a driver lands on the bookings list; no second account appears.
    expect((await roundTrip('code-dan')).callback.headers.location).toBe('/bookings');
    expect((await t.db.select().from(users).where(eq(users.id, driver.id)))[0]?.facebookId).toBe('10003');
    expect(await t.db.select().from(users).where(eq(users.email, 'dan.fb@example.com'))).toHaveLength(1);
  });

  it('refuses a forged state, a refused code, an unapproved account and a disabled setting, back at /login with the key', async () => {
    graph.users.set('code-eve', { id: '10004', first_name: 'Eve' });
    const forged = await roundTrip('code-eve', () => 'forged-state');
    expect(forged.callback.headers.location).toBe('/login?error=login_error');
    expect(forged.callback.cookies.find((c) => c.name === 'rideway_session')).toBeUndefined();
    expect(await t.db.select().from(users).where(eq(users.facebookId, '10004'))).toHaveLength(0);
    expect((await t.request({ method: 'GET', url: '/api/auth/facebook/callback?code=code-eve' })).headers.location).toBe('/login?error=login_error');
    expect((await roundTrip('no-such-code')).callback.headers.location).toBe('/login?error=login_error');

    const pending = await t.makeUser('driver', { email: 'pending.fb@example.com', approved: false });
    graph.users.set('code-pending', { id: '10005', email: pending.email ?? '' });
    expect((await roundTrip('code-pending')).callback.headers.location).toBe('/login?error=require_approval');

    await t.setSettings({ FacebookLoginEnabled: false });
    const off = await t.request({ method: 'GET', url: '/api/auth/facebook' });
    expect(off.headers.location).toBe('/login?error=forbidden');
    expect((await t.request({ method: 'GET', url: '/api/auth/methods' })).json()).toMatchObject({ facebook: false });
    await t.setSettings({ FacebookLoginEnabled: true });
  });

  it('is not on offer without a Facebook app on the server, whatever the setting', async () => {
    const bare = await createTestApp(engine);
    try {
      await bare.setSettings({ FacebookLoginEnabled: true });
      expect((await bare.request({ method: 'GET', url: '/api/auth/methods' })).json()).toMatchObject({ facebook: false });
      expect((await bare.request({ method: 'GET', url: '/api/auth/facebook' })).headers.location).toBe('/login?error=forbidden');
    } finally {
      await bare.close();
    }
  });
});
