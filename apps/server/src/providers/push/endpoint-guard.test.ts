import type { LookupAddress } from 'node:dns';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { checkPushEndpoint, isPublicAddress, pinnedLookup, PushEndpointRefused, type Resolver } from './endpoint-guard';
import { newVapidKeys, webPushSender } from './webpush';

/** A resolver with no network: each host answers the addresses given. */
const fakeDns = (table: Record<string, string[]>): Resolver =>
  vi.fn((host: string) => {
    const addresses = table[host];
    if (!addresses) return Promise.reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' }));
    return Promise.resolve(addresses.map((address): LookupAddress => ({ address, family: address.includes(':') ? 6 : 4 })));
  });

const refusal = async (promise: Promise<unknown>): Promise<unknown> => promise.then(() => 'accepted', (error: unknown) => error);

const VAPID = { ...(await newVapidKeys()), subject: 'mailto:test@rideway.local' };

describe('which addresses are public', () => {
  it.each([
    '127.0.0.1', '127.255.0.9', '10.0.0.1', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '100.127.255.255',
    '0.0.0.0', '224.0.0.1', '239.255.255.250', '255.255.255.255', '198.18.0.1', '192.0.2.1',
    '::', '::1', 'fc00::1', 'fd12:3456::1', 'fe80::1', 'fe80::1%eth0', 'ff02::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1',
    '::ffff:169.254.169.254', '64:ff9b::10.0.0.1', '64:ff9b::7f00:1', '2002:c0a8:101::1', '2001:db8::1', 'not an address',
  ])('%s is not', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });
  it.each(['8.8.8.8', '142.250.180.10', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2a00:1450:4009:81f::200a', '::ffff:8.8.8.8', '64:ff9b::8.8.8.8', '2606:4700::1111'])(
    '%s is',
    (address) => {
      expect(isPublicAddress(address)).toBe(true);
    },
  );
});

describe('checkPushEndpoint', () => {
  const dns = fakeDns({
    'fcm.googleapis.com': ['142.250.180.10', '2a00:1450:4009:81f::200a'],
    'push.intranet.example': ['10.0.0.1'],
    'half.example': ['142.250.180.10', '192.168.0.7'],
    'mapped.example': ['::ffff:127.0.0.1'],
    'metadata.example': ['169.254.169.254'],
    'ula.example': ['fd00::5'],
    'empty.example': [],
  });

  it('accepts https at a host whose every address is public, and answers those addresses', async () => {
    expect(await checkPushEndpoint('https://fcm.googleapis.com/fcm/send/abc', { resolve: dns })).toEqual([
      { address: '142.250.180.10', family: 4 },
      { address: '2a00:1450:4009:81f::200a', family: 6 },
    ]);
    expect(await checkPushEndpoint('https://8.8.8.8/push', { resolve: dns })).toEqual([{ address: '8.8.8.8', family: 4 }]);
  });

  it.each(['https://push.intranet.example/x', 'https://half.example/x', 'https://mapped.example/x', 'https://metadata.example/latest', 'https://ula.example/x'])(
    'refuses %s, whose host resolves to a private address',
    async (endpoint) => {
      expect(await refusal(checkPushEndpoint(endpoint, { resolve: dns }))).toBeInstanceOf(PushEndpointRefused);
    },
  );

  it.each([
    'http://fcm.googleapis.com/fcm/send/abc',
    'ftp://fcm.googleapis.com/x',
    'https://127.0.0.1:8080/x',
    'https://2130706433/x',
    'https://0x7f.1/x',
    'https://[::1]/x',
    'https://[::ffff:127.0.0.1]/x',
    'https://[fe80::1]/x',
    'https://169.254.169.254/latest/meta-data',
    'https://10.1.2.3/x',
    'https://[64:ff9b::a00:1]/x',
    'not a url',
  ])('refuses %s without asking DNS', async (endpoint) => {
    const resolve = fakeDns({});
    expect(await refusal(checkPushEndpoint(endpoint, { resolve }))).toBeInstanceOf(PushEndpointRefused);
    expect(resolve).not.toHaveBeenCalled();
  });

  it('rethrows a failed lookup as a plain error (a retry later may succeed)', async () => {
    for (const endpoint of ['https://nowhere.example/x', 'https://empty.example/x']) {
      const error = await refusal(checkPushEndpoint(endpoint, { resolve: dns }));
      expect(error).toBeInstanceOf(Error);
      expect(error).not.toBeInstanceOf(PushEndpointRefused);
    }
  });

  it('lets http and private addresses through only with the test-only switch', async () => {
    expect(await checkPushEndpoint('http://127.0.0.1:9/x', { resolve: dns, allowPrivate: true })).toEqual([{ address: '127.0.0.1', family: 4 }]);
    expect(await checkPushEndpoint('https://push.intranet.example/x', { resolve: dns, allowPrivate: true })).toEqual([{ address: '10.0.0.1', family: 4 }]);
    expect(await refusal(checkPushEndpoint('ftp://127.0.0.1/x', { resolve: dns, allowPrivate: true }))).toBeInstanceOf(PushEndpointRefused);
  });
});

describe('pinnedLookup', () => {
  const lookup = pinnedLookup([{ address: '142.250.180.10', family: 4 }, { address: '2a00:1450::1', family: 6 }]);
  const ask = (options: Parameters<typeof lookup>[1]) =>
    new Promise((resolve) => {
      lookup('anything.example', options, (error, address, family) => { resolve({ error: error?.message, address, family }); });
    });

  it('answers only the checked addresses, whatever host is asked', async () => {
    expect(await ask({})).toEqual({ error: undefined, address: '142.250.180.10', family: 4 });
    expect(await ask({ family: 6 })).toEqual({ error: undefined, address: '2a00:1450::1', family: 6 });
    expect(await ask({ all: true })).toMatchObject({ address: [{ address: '142.250.180.10', family: 4 }, { address: '2a00:1450::1', family: 6 }] });
    const onlyIpv4 = pinnedLookup([{ address: '8.8.8.8', family: 4 }]);
    const error = await new Promise((resolve) => { onlyIpv4('x', { family: 6 }, resolve); });
    expect(error).toMatchObject({ code: 'ENOTFOUND' });
  });
});

describe('webPushSender', () => {
  const keys = { p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM', auth: 'tBHItJI5svbpez7KI4CCXg' };
  const vapid = VAPID;
  let server: Server;
  let port = 0;
  let connections = 0;
  const paths: string[] = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      paths.push(request.url ?? '');
      request.resume();
      request.on('end', () => {
        if (request.url === '/moved') response.writeHead(307, { location: '/landing' });
        else response.statusCode = 201;
        response.end();
      });
    });
    server.on('connection', () => { connections += 1; });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  it('sends nothing to a host that resolves to a private address, and says so in the log', async () => {
    const warn = vi.fn();
    const send = webPushSender(vapid, { resolve: fakeDns({ 'push.rebound.example': ['127.0.0.1'] }), log: { warn } });
    connections = 0;
    for (const endpoint of [`https://push.rebound.example:${String(port)}/x`, `http://127.0.0.1:${String(port)}/x`]) {
      expect(await refusal(send({ endpoint, keys }, 'hello'))).toBeInstanceOf(PushEndpointRefused);
    }
    expect(connections).toBe(0);
    expect(warn).toHaveBeenCalledTimes(2);
    expect(warn).toHaveBeenCalledWith({ host: 'push.rebound.example' }, expect.stringContaining('resolves to 127.0.0.1'));
  });

  it('connects to the addresses it checked, not to a second DNS answer', async () => {
    // The host exists only in the fake resolver: the request reaches the stand-in through the pinned lookup.
    const send = webPushSender(vapid, { allowPrivate: true, resolve: fakeDns({ 'push.stand-in.example': ['127.0.0.1'] }) });
    paths.length = 0;
    expect(await send({ endpoint: `http://push.stand-in.example:${String(port)}/pinned`, keys }, 'hello')).toBe(201);
    expect(paths).toEqual(['/pinned']);
  });

  it('does not follow a redirect', async () => {
    const send = webPushSender(vapid, { allowPrivate: true });
    paths.length = 0;
    expect(await send({ endpoint: `http://127.0.0.1:${String(port)}/moved`, keys }, 'hello')).toBe(307);
    expect(paths).toEqual(['/moved']);
  });
});
