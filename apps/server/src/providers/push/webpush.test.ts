/**
 * The Web Push sender checked at a local push service that does what a browser's push service
 * and the browser do with a message, written from the RFCs:
 * - RFC 8030 (https://www.rfc-editor.org/rfc/rfc8030#section-5): a POST to the subscription's
 *   endpoint with a TTL header; 201 Created accepts it; 404/410 say the subscription is gone.
 * - RFC 8292 (https://www.rfc-editor.org/rfc/rfc8292#section-2 and #section-3): the
 *   `Authorization: vapid t=<JWT>, k=<public key>` header; the JWT is ES256-signed by that key,
 *   its `aud` is the push service's origin, its `exp` at most 24 hours ahead, its `sub` a
 *   mailto: or https: contact.
 * - RFC 8291 (https://www.rfc-editor.org/rfc/rfc8291#section-3.4) and RFC 8188
 *   (https://www.rfc-editor.org/rfc/rfc8188#section-2): the body is one aes128gcm record; the
 *   header names the salt, the record size and the sender's ephemeral ECDH key; the content key
 *   comes from the ECDH secret and the browser's auth secret by HKDF-SHA-256.
 * The test holds the "browser" keys (a P-256 pair and a 16-byte auth secret it makes), so it can
 * decrypt and read exactly what the server sent.
 */
import { createECDH, createDecipheriv, createPublicKey, hkdfSync, randomBytes, verify } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PushEndpointRefused } from './endpoint-guard';
import { newVapidKeys, webPushSender, type PushSender, type VapidKeys } from './webpush';

const b64url = (bytes: Buffer): string => bytes.toString('base64url');

/** A browser's side of a subscription: its ECDH P-256 key pair and auth secret. */
function browserKeys() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return { ecdh, auth, subscriptionKeys: { p256dh: b64url(ecdh.getPublicKey()), auth: b64url(auth) } };
}

/** RFC 8291 section 3.4 and RFC 8188 section 2: the message a browser reads from an aes128gcm body. */
function decrypt(body: Buffer, browser: ReturnType<typeof browserKeys>): string {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const keyIdLength = body.readUInt8(20);
  const senderPublic = body.subarray(21, 21 + keyIdLength);
  const record = body.subarray(21 + keyIdLength);
  expect(keyIdLength).toBe(65);
  // One record: the whole message fits in a record, as the web-push library sends it.
  expect(record.length).toBeLessThanOrEqual(recordSize);
  const ecdhSecret = browser.ecdh.computeSecret(senderPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), browser.ecdh.getPublicKey(), senderPublic]);
  const ikm = Buffer.from(hkdfSync('sha256', ecdhSecret, browser.auth, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 0x02, then any zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end -= 1;
  expect(padded[end]).toBe(2);
  return padded.subarray(0, end).toString('utf8');
}

/** RFC 8292: the VAPID header checked as a push service does; answers the JWT's claims. */
function checkVapid(authorization: string | undefined, audience: string, now: number): { aud: string; exp: number; sub: string } {
  const match = /^vapid t=([\w-]+)\.([\w-]+)\.([\w-]+), k=([\w-]+)$/.exec(authorization ?? '');
  if (!match) throw new Error(`not a vapid authorization: ${String(authorization)}`);
  const [, header = '', claims = '', signature = '', key = ''] = match;
  const point = Buffer.from(key, 'base64url');
  expect(point.length).toBe(65);
  const publicKey = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: b64url(point.subarray(1, 33)), y: b64url(point.subarray(33)) }, format: 'jwk' });
  const signed = verify('sha256', Buffer.from(`${header}.${claims}`), { key: publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'));
  if (!signed) throw new Error('the VAPID signature does not verify');
  expect(JSON.parse(Buffer.from(header, 'base64url').toString())).toEqual({ typ: 'JWT', alg: 'ES256' });
  const body = JSON.parse(Buffer.from(claims, 'base64url').toString()) as { aud: string; exp: number; sub: string };
  expect(body.aud).toBe(audience);
  expect(body.exp).toBeGreaterThan(now / 1000);
  expect(body.exp).toBeLessThanOrEqual(now / 1000 + 24 * 60 * 60);
  expect(body.sub).toMatch(/^(mailto:|https:)/);
  return body;
}

type Received = { path: string; headers: IncomingMessage['headers']; body: Buffer };
type Answer = (response: ServerResponse) => void;

describe('Web Push at a local push service that decrypts and checks VAPID (RFC 8030, 8188, 8291, 8292)', () => {
  let service: Server;
  let base = '';
  const received: Received[] = [];
  const answers = new Map<string, Answer>();
  let vapid: VapidKeys;
  let send: PushSender;

  beforeAll(async () => {
    service = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({ path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks) });
        const answer = answers.get(request.url ?? '');
        if (answer) answer(response);
        else {
          response.statusCode = 201;
          response.setHeader('location', `${base}/message/1`);
          response.end();
        }
      });
    });
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${String((service.address() as AddressInfo).port)}`;
    vapid = { ...(await newVapidKeys()), subject: 'mailto:ops@rideway.test' };
    send = webPushSender(vapid, { allowPrivate: true });
  });
  afterAll(() => new Promise<void>((resolve) => { service.closeAllConnections(); service.close(() => { resolve(); }); }));
  beforeEach(() => {
    received.length = 0;
    answers.clear();
  });

  it('sends the message encrypted for the browser\'s keys, which decrypt it to the exact payload', async () => {
    const browser = browserKeys();
    const payload = JSON.stringify({ title: 'Rideway', msg: 'A new trip request is waiting for you.', screen: 'DriverTrips' });
    const started = Date.now();
    expect(await send({ endpoint: `${base}/push/driver-1`, keys: browser.subscriptionKeys }, payload)).toBe(201);
    expect(received).toHaveLength(1);
    const [message] = received;
    expect(message?.path).toBe('/push/driver-1');
    expect(message?.headers).toMatchObject({ 'content-encoding': 'aes128gcm', 'content-type': 'application/octet-stream', ttl: '3600' });
    expect(message?.body.includes(Buffer.from('trip request'))).toBe(false);
    expect(decrypt(message?.body ?? Buffer.alloc(0), browser)).toBe(payload);
    const claims = checkVapid(message?.headers.authorization, base, started);
    expect(claims.sub).toBe('mailto:ops@rideway.test');
    expect(message?.headers.authorization).toContain(`k=${vapid.publicKey}`);
  });

  it('encrypts each message afresh: another salt and sender key, and another browser cannot read it', async () => {
    const browser = browserKeys();
    const stranger = browserKeys();
    const payload = JSON.stringify({ title: 'Rideway', msg: 'Your driver has arrived at the pickup.', screen: 'BookedCab', params: { bookingId: 'bk-1' } });
    await send({ endpoint: `${base}/push/rider`, keys: browser.subscriptionKeys }, payload);
    await send({ endpoint: `${base}/push/rider`, keys: browser.subscriptionKeys }, payload);
    const [first, second] = received.map((message) => message.body);
    expect(first?.subarray(0, 16).equals(second?.subarray(0, 16) ?? Buffer.alloc(0))).toBe(false);
    expect(first?.subarray(21, 86).equals(second?.subarray(21, 86) ?? Buffer.alloc(0))).toBe(false);
    expect(decrypt(second ?? Buffer.alloc(0), browser)).toBe(payload);
    expect(() => decrypt(first ?? Buffer.alloc(0), stranger)).toThrow();
  });

  it('answers the push service\'s refusal as its status (the relay forgets a gone subscription)', async () => {
    const browser = browserKeys();
    answers.set('/gone', (response) => { response.statusCode = 410; response.end(); });
    answers.set('/missing', (response) => { response.statusCode = 404; response.end('{"reason":"NotFound"}'); });
    answers.set('/busy', (response) => { response.statusCode = 503; response.setHeader('retry-after', '30'); response.end(); });
    answers.set('/too-big', (response) => { response.statusCode = 413; response.end(); });
    expect(await send({ endpoint: `${base}/gone`, keys: browser.subscriptionKeys }, '{}')).toBe(410);
    expect(await send({ endpoint: `${base}/missing`, keys: browser.subscriptionKeys }, '{}')).toBe(404);
    expect(await send({ endpoint: `${base}/busy`, keys: browser.subscriptionKeys }, '{}')).toBe(503);
    expect(await send({ endpoint: `${base}/too-big`, keys: browser.subscriptionKeys }, '{}')).toBe(413);
  });

  it('fails (to be retried) on a malformed answer: the connection cut mid-answer', async () => {
    const browser = browserKeys();
    answers.set('/cut', (response) => { response.socket?.destroy(); });
    answers.set('/garbage', (response) => { response.socket?.end('NOT HTTP AT ALL\r\n\r\n'); });
    await expect(send({ endpoint: `${base}/cut`, keys: browser.subscriptionKeys }, '{}')).rejects.toThrow();
    await expect(send({ endpoint: `${base}/garbage`, keys: browser.subscriptionKeys }, '{}')).rejects.toThrow();
  });

  it('gives up on a push service that never answers, after its timeout', async () => {
    const browser = browserKeys();
    answers.set('/silent', () => undefined);
    await expect(send({ endpoint: `${base}/silent`, keys: browser.subscriptionKeys }, '{}')).rejects.toThrow(/abort|timeout/i);
  }, 20_000);

  it('posts nothing to a private address unless the test-only switch allows it', async () => {
    const browser = browserKeys();
    const guarded = webPushSender(vapid);
    await expect(guarded({ endpoint: `${base}/push/x`, keys: browser.subscriptionKeys }, '{}')).rejects.toBeInstanceOf(PushEndpointRefused);
    expect(received).toHaveLength(0);
  });
});
