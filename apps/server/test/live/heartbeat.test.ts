import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { createTestApp, type TestApp } from '../harness';

describe('WebSocket heartbeats (issue 5)', () => {
  let t: TestApp;
  let url = '';
  let token = '';
  beforeAll(async () => {
    t = await createTestApp('pglite', { WS_HEARTBEAT_S: '1' });
    const rider = await t.makeUser('rider');
    token = await t.tokenOf(rider);
    await t.live(rider);
    const address = t.app.server.address();
    url = `ws://127.0.0.1:${String(typeof address === 'object' && address ? address.port : 0)}/api/ws`;
  });
  afterAll(() => t.close());

  const connect = (autoPong: boolean) => new WebSocket(url, { headers: { authorization: `Bearer ${token}` }, autoPong });
  const closedWithin = (socket: WebSocket, ms: number) =>
    new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => { resolve(false); }, ms);
      socket.once('close', () => {
        clearTimeout(timer);
        resolve(true);
      });
    });

  it('keeps a client that answers the pings, and drops one that went silent', async () => {
    const alive = connect(true);
    const silent = connect(false);
    const [aliveClosed, silentClosed] = await Promise.all([closedWithin(alive, 3500), closedWithin(silent, 3500)]);
    expect(silentClosed).toBe(true);
    expect(aliveClosed).toBe(false);
    alive.close();
  });
});
