import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeOf, createTestApp, ENGINES, type TestApp } from '../harness';
import type { UserRow } from '../../src/modules/users/accounts';

/** Issue 15, point 13: a hostile site cannot make a signed-in browser act. */
describe.each(ENGINES)('cross-site requests on %s', (engine) => {
  let t: TestApp;
  let rider: UserRow;
  let cookie: string;
  beforeAll(async () => {
    t = await createTestApp(engine);
    rider = await t.makeUser('rider');
    cookie = `rideway_session=${await t.tokenOf(rider)}`;
  });
  afterAll(() => t.close());

  const patchName = (headers: Record<string, string>, firstName: string) =>
    t.request({ method: 'PATCH', url: '/api/me', headers: { cookie, ...headers }, payload: { firstName } });
  const nameNow = async () => (await t.request({ method: 'GET', url: '/api/me', headers: { cookie } })).json().user.firstName;

  it('refuses a cookie-authenticated write from another origin, by Origin or by Referer, and changes nothing', async () => {
    const hostile: Record<string, string>[] = [{ origin: 'https://evil.example' }, { referer: 'https://evil.example/page' }, { origin: 'null' }];
    for (const headers of hostile) {
      const refused = await patchName(headers, 'Mallory');
      expect([refused.statusCode, codeOf(refused)]).toEqual([403, 'forbidden']);
    }
    expect(await nameNow()).not.toBe('Mallory');
  });

  it("accepts the app's own origin and clients that send no origin at all", async () => {
    expect((await patchName({ origin: 'http://localhost:80' }, 'Alice')).statusCode).toBe(200);
    expect(await nameNow()).toBe('Alice');
    expect((await patchName({}, 'Alicia')).statusCode).toBe(200);
    expect(await nameNow()).toBe('Alicia');
  });

  it('refuses a WebSocket opened from another origin, and accepts one from the own origin', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const url = `${address.replace('http', 'ws')}/api/ws`;
    const open = (origin: string) =>
      new Promise<number>((resolve) => {
        const socket = new WebSocket(url, { headers: { cookie }, origin });
        socket.once('open', () => { socket.close(); resolve(101); });
        socket.once('unexpected-response', (_request, response) => { resolve(response.statusCode ?? 0); });
        socket.once('error', () => { resolve(0); });
      });
    expect(await open('https://evil.example')).toBe(403);
    expect(await open(address)).toBe(101);
  });
});
