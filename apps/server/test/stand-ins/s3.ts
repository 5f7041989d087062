import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { crc32 } from 'node:zlib';
import { bodyOf, listenLocally } from './stand-in-server';

/**
 * A local stand-in for Amazon S3's REST API, one bucket, path-style addresses
 * (`/<bucket>/<key>`), written from Amazon's API reference:
 * - PutObject, `PUT /<bucket>/<key>`: stores the body with its Content-Type
 *   (binary/octet-stream when none) and answers 200 with an ETag
 *   (https://docs.aws.amazon.com/AmazonS3/latest/API/API_PutObject.html). A single PUT's ETag is
 *   the MD5 of the bytes in quotes (https://docs.aws.amazon.com/AmazonS3/latest/API/RESTCommonResponseHeaders.html).
 *   An `x-amz-checksum-crc32` sent with it is checked (400 BadDigest) and kept.
 * - GetObject, `GET /<bucket>/<key>`: 200 with the bytes, Content-Type, Content-Length, ETag,
 *   Last-Modified; with `x-amz-checksum-mode: ENABLED` also the kept CRC32, which the SDK checks
 *   against the body (https://docs.aws.amazon.com/AmazonS3/latest/API/API_GetObject.html).
 *   A missing key is 404 `NoSuchKey`.
 * - HeadObject, `HEAD /<bucket>/<key>`: GetObject's headers without a body; its errors have no
 *   body either, so a missing key is a bare 404 (https://docs.aws.amazon.com/AmazonS3/latest/API/API_HeadObject.html).
 * - DeleteObject, `DELETE /<bucket>/<key>`: 204, whether or not the key existed
 *   (https://docs.aws.amazon.com/AmazonS3/latest/API/API_DeleteObject.html).
 * - Errors are `application/xml` `<Error><Code/><Message/><Resource/><RequestId/></Error>` with
 *   their HTTP status (https://docs.aws.amazon.com/AmazonS3/latest/API/ErrorResponses.html):
 *   AccessDenied, AuthorizationHeaderMalformed, InvalidAccessKeyId, SignatureDoesNotMatch,
 *   RequestTimeTooSkewed, XAmzContentSHA256Mismatch, BadDigest, NoSuchBucket, NoSuchKey,
 *   MethodNotAllowed, NotImplemented, InternalError.
 * - Every request is authenticated with AWS Signature Version 4 in the Authorization header
 *   (https://docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-authenticating-requests.html,
 *   https://docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-header-based-auth.html): the stand-in
 *   rebuilds the canonical request from what it received, signs it with the one secret it knows,
 *   and refuses a signature that differs (403 SignatureDoesNotMatch). S3 does not normalise the
 *   path before signing; its payload hash is the `x-amz-content-sha256` header, which must match
 *   the body when it is a hash. Chunked (`STREAMING-...`) uploads are not implemented (501).
 *
 * Each request takes the next mode from `script`, then `ok`: `fail` (500 InternalError, which the
 * SDK retries), `hang` (never answers: the client's timeout fires), `truncated` (the headers
 * promise more bytes than arrive before the connection drops), `notS3` (a 404 HTML page, as a
 * proxy in front of a wrong address answers), `corrupt` (GetObject's bytes altered in transit,
 * the kept checksum unchanged).
 */
export type S3Mode = 'ok' | 'fail' | 'hang' | 'truncated' | 'notS3' | 'corrupt';

export type S3Object = { bytes: Buffer; contentType: string; etag: string; crc32: string | undefined; lastModified: Date };

/** What a request was and how the stand-in answered it (`code` for S3's error code). */
export type S3Request = { method: string; key: string | undefined; status: number; code?: string };

export type S3StandIn = {
  url: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The bucket's objects by key. */
  objects: Map<string, S3Object>;
  /** Every request, oldest first. */
  requests: S3Request[];
  script: S3Mode[];
  close: () => Promise<void>;
};

const ALGORITHM = 'AWS4-HMAC-SHA256';
const EMPTY_SHA256 = createHash('sha256').update('').digest('hex');
/** S3 refuses a request signed more than 15 minutes from its own clock (RequestTimeTooSkewed). */
const MAX_SKEW_MS = 15 * 60 * 1000;

const sha256 = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string): Buffer => createHmac('sha256', key).update(data).digest();
const escapeXml = (text: string): string => text.replace(/[<>&'"]/g, (char) => `&#${String(char.charCodeAt(0))};`);
/** The CRC32 as S3 writes it in `x-amz-checksum-crc32`: its four big-endian bytes in base64. */
const crc32Base64 = (bytes: Buffer): string => {
  const sum = Buffer.alloc(4);
  sum.writeUInt32BE(crc32(bytes));
  return sum.toString('base64');
};

/** SigV4's UriEncode: every byte but the unreserved characters percent-encoded in upper case; `/` kept in a path. */
function uriEncode(text: string, keepSlash: boolean): string {
  let encoded = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const char = String.fromCharCode(byte);
    encoded += /[A-Za-z0-9\-._~]/.test(char) || (keepSlash && char === '/') ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return encoded;
}

/** The path as SigV4 canonicalises it for S3: each segment decoded and encoded again, never normalised. */
const canonicalUri = (rawPath: string): string => rawPath.split('/').map((segment) => uriEncode(decodeURIComponent(segment), false)).join('/');

/** The query's parameters encoded, sorted by name then value, `name=value` joined with `&`. */
function canonicalQuery(rawQuery: string): string {
  if (rawQuery === '') return '';
  const pairs = rawQuery.split('&').map((pair) => {
    const at = pair.indexOf('=');
    const name = decodeURIComponent(at === -1 ? pair : pair.slice(0, at));
    const value = at === -1 ? '' : decodeURIComponent(pair.slice(at + 1));
    return [uriEncode(name, false), uriEncode(value, false)] as const;
  });
  pairs.sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : x > y ? 1 : 0) : a < b ? -1 : 1));
  return pairs.map(([name, value]) => `${name}=${value}`).join('&');
}

type Refusal = { status: number; code: string; message: string };
const refusal = (status: number, code: string, message: string): Refusal => ({ status, code, message });

type Authorization = { accessKeyId: string; date: string; region: string; service: string; terminal: string; signedHeaders: string[]; signature: string };

/** `AWS4-HMAC-SHA256 Credential=<key>/<date>/<region>/s3/aws4_request, SignedHeaders=a;b, Signature=<hex>`. */
function parseAuthorization(header: string): Authorization | undefined {
  const match = /^AWS4-HMAC-SHA256 Credential=([^/,\s]+)\/(\d{8})\/([^/,\s]+)\/([^/,\s]+)\/([^/,\s]+),\s*SignedHeaders=([a-z0-9;-]+),\s*Signature=([0-9a-f]{64})$/.exec(header.trim());
  if (!match) return undefined;
  const [, accessKeyId = '', date = '', region = '', service = '', terminal = '', signedHeaders = '', signature = ''] = match;
  return { accessKeyId, date, region, service, terminal, signedHeaders: signedHeaders.split(';'), signature };
}

/** `20261122T100000Z` as a time, or NaN. */
const amzTime = (value: string): number => {
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  return match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]), Number(match[4]), Number(match[5]), Number(match[6])) : Number.NaN;
};

const headerText = (request: IncomingMessage, name: string): string | undefined => {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(',') : value;
};

/**
 * Security-critical for what the adapter's tests prove: the request's SigV4 signature checked the
 * way S3 checks it. Undefined when it holds; otherwise S3's refusal.
 */
function verifySignature(standIn: S3StandIn, request: IncomingMessage, rawPath: string, rawQuery: string, body: Buffer): Refusal | undefined {
  const header = headerText(request, 'authorization');
  if (!header) return refusal(403, 'AccessDenied', 'Access Denied');
  const auth = parseAuthorization(header);
  if (!auth) return refusal(400, 'AuthorizationHeaderMalformed', 'The authorization header is malformed.');
  if (auth.accessKeyId !== standIn.accessKeyId) return refusal(403, 'InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.');
  if (auth.service !== 's3' || auth.terminal !== 'aws4_request') return refusal(400, 'AuthorizationHeaderMalformed', 'The authorization header is malformed; the credential scope is not <date>/<region>/s3/aws4_request.');
  if (auth.region !== standIn.region) return refusal(400, 'AuthorizationHeaderMalformed', `The authorization header is malformed; the region '${auth.region}' is wrong; expecting '${standIn.region}'`);
  for (const required of ['host', 'x-amz-date', 'x-amz-content-sha256']) {
    if (!auth.signedHeaders.includes(required)) return refusal(403, 'AccessDenied', `${required} must be a signed header.`);
  }
  // Every x-amz-* header sent must be signed, so none can be added on the way.
  for (const name of Object.keys(request.headers)) {
    if (name.startsWith('x-amz-') && !auth.signedHeaders.includes(name)) return refusal(403, 'AccessDenied', 'There were headers present in the request which were not signed.');
  }
  const amzDate = headerText(request, 'x-amz-date') ?? '';
  const signedAt = amzTime(amzDate);
  if (Number.isNaN(signedAt) || amzDate.slice(0, 8) !== auth.date) return refusal(403, 'AccessDenied', 'X-Amz-Date is not a valid date, or not the credential scope\'s date.');
  if (Math.abs(Date.now() - signedAt) > MAX_SKEW_MS) return refusal(403, 'RequestTimeTooSkewed', "The difference between the request time and the server's time is too large.");
  const payloadHash = headerText(request, 'x-amz-content-sha256') ?? '';
  if (payloadHash.startsWith('STREAMING-')) return refusal(501, 'NotImplemented', 'This stand-in does not implement aws-chunked uploads.');
  if (payloadHash !== 'UNSIGNED-PAYLOAD') {
    if (!/^[0-9a-f]{64}$/.test(payloadHash)) return refusal(400, 'InvalidArgument', 'x-amz-content-sha256 must be UNSIGNED-PAYLOAD, STREAMING-..., or a SHA-256 in hex.');
    if (payloadHash !== (body.length === 0 ? EMPTY_SHA256 : sha256(body))) return refusal(400, 'XAmzContentSHA256Mismatch', "The provided 'x-amz-content-sha256' header does not match what was computed.");
  }
  const canonicalHeaders = auth.signedHeaders.map((name) => `${name}:${(headerText(request, name) ?? '').trim().replace(/\s+/g, ' ')}\n`).join('');
  let canonicalRequest: string;
  try {
    canonicalRequest = [request.method ?? '', canonicalUri(rawPath), canonicalQuery(rawQuery), canonicalHeaders, auth.signedHeaders.join(';'), payloadHash].join('\n');
  } catch {
    // A percent sign not followed by two hex digits.
    return refusal(400, 'InvalidURI', "Couldn't parse the specified URI.");
  }
  const scope = `${auth.date}/${auth.region}/s3/aws4_request`;
  const stringToSign = [ALGORITHM, amzDate, scope, sha256(canonicalRequest)].join('\n');
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${standIn.secretAccessKey}`, auth.date), auth.region), 's3'), 'aws4_request');
  const expected = hmac(signingKey, stringToSign);
  const given = Buffer.from(auth.signature, 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return refusal(403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided. Check your key and signing method.');
  }
  return undefined;
}

export async function startS3StandIn({ bucket = 'rideway-files', region = 'us-east-1' }: { bucket?: string; region?: string } = {}): Promise<S3StandIn> {
  const standIn: S3StandIn = {
    url: '',
    bucket,
    region,
    // Shaped as AWS's are: AKIA and 16 upper-case letters or digits; a 40-character secret.
    accessKeyId: `AKIA${randomBytes(8).toString('hex').toUpperCase()}`,
    secretAccessKey: randomBytes(30).toString('base64'),
    objects: new Map(),
    requests: [],
    script: [],
    close: () => Promise.resolve(),
  };

  const handle = (request: IncomingMessage, response: ServerResponse, body: Buffer): void => {
    const method = request.method ?? 'GET';
    const target = request.url ?? '/';
    const queryAt = target.indexOf('?');
    const rawPath = queryAt === -1 ? target : target.slice(0, queryAt);
    const rawQuery = queryAt === -1 ? '' : target.slice(queryAt + 1);
    const [, rawBucket = '', ...rawKey] = rawPath.split('/');
    let key: string | undefined;
    try {
      key = rawKey.length === 0 || rawKey.join('/') === '' ? undefined : decodeURIComponent(rawKey.join('/'));
    } catch {
      key = undefined;
    }
    const requestId = randomBytes(8).toString('hex').toUpperCase();
    const seen: S3Request = { method, key, status: 0 };
    standIn.requests.push(seen);
    const common = { 'x-amz-request-id': requestId, 'x-amz-id-2': randomBytes(24).toString('base64'), server: 'AmazonS3' };

    const answerError = ({ status, code, message }: Refusal): void => {
      Object.assign(seen, { status, code });
      const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${escapeXml(message)}</Message>${code === 'NoSuchKey' && key ? `<Key>${escapeXml(key)}</Key>` : ''}<Resource>${escapeXml(rawPath)}</Resource><RequestId>${requestId}</RequestId></Error>`;
      // A HEAD's errors carry no body: the status is all the client learns.
      response.writeHead(status, { ...common, 'content-type': 'application/xml', 'content-length': String(method === 'HEAD' ? 0 : Buffer.byteLength(xml)) });
      response.end(method === 'HEAD' ? undefined : xml);
    };

    const mode = standIn.script.shift() ?? 'ok';
    if (mode === 'hang') return;
    if (mode === 'fail') {
      answerError(refusal(500, 'InternalError', 'We encountered an internal error. Please try again.'));
      return;
    }
    if (mode === 'notS3') {
      seen.status = 404;
      response.writeHead(404, { 'content-type': 'text/html' }).end('<html><body><h1>404 Not Found</h1></body></html>');
      return;
    }
    if (mode === 'truncated') {
      seen.status = 200;
      response.writeHead(200, { ...common, 'content-type': 'image/png', 'content-length': '1000' });
      response.write(Buffer.alloc(10));
      setTimeout(() => response.destroy(), 10);
      return;
    }

    const refused = verifySignature(standIn, request, rawPath, rawQuery, body);
    if (refused) {
      answerError(refused);
      return;
    }
    if (rawBucket !== standIn.bucket) {
      answerError(refusal(404, 'NoSuchBucket', 'The specified bucket does not exist'));
      return;
    }
    if (key === undefined) {
      answerError(refusal(501, 'NotImplemented', 'This stand-in serves object operations only.'));
      return;
    }
    const stored = standIn.objects.get(key);
    if (method === 'PUT') {
      const sentCrc32 = headerText(request, 'x-amz-checksum-crc32');
      if (sentCrc32 !== undefined && sentCrc32 !== crc32Base64(body)) {
        answerError(refusal(400, 'BadDigest', 'The CRC32 you specified did not match the calculated checksum.'));
        return;
      }
      const object: S3Object = {
        bytes: body,
        contentType: headerText(request, 'content-type') ?? 'binary/octet-stream',
        etag: `"${createHash('md5').update(body).digest('hex')}"`,
        crc32: sentCrc32,
        lastModified: new Date(),
      };
      standIn.objects.set(key, object);
      seen.status = 200;
      response.writeHead(200, { ...common, etag: object.etag, ...(sentCrc32 ? { 'x-amz-checksum-crc32': sentCrc32 } : {}), 'content-length': '0' }).end();
      return;
    }
    if (method === 'GET' || method === 'HEAD') {
      if (!stored) {
        answerError(refusal(404, 'NoSuchKey', 'The specified key does not exist.'));
        return;
      }
      const withChecksum = headerText(request, 'x-amz-checksum-mode') === 'ENABLED' && stored.crc32 !== undefined;
      seen.status = 200;
      response.writeHead(200, {
        ...common,
        'content-type': stored.contentType,
        'content-length': String(stored.bytes.length),
        etag: stored.etag,
        'last-modified': stored.lastModified.toUTCString(),
        'accept-ranges': 'bytes',
        ...(withChecksum ? { 'x-amz-checksum-crc32': stored.crc32, 'x-amz-checksum-type': 'FULL_OBJECT' } : {}),
      });
      if (method === 'HEAD') {
        response.end();
        return;
      }
      const sent = Buffer.from(stored.bytes);
      if (mode === 'corrupt' && sent.length > 0) sent[sent.length - 1] = (sent[sent.length - 1] ?? 0) ^ 0xff;
      response.end(sent);
      return;
    }
    if (method === 'DELETE') {
      standIn.objects.delete(key);
      seen.status = 204;
      response.writeHead(204, common).end();
      return;
    }
    answerError(refusal(405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.'));
  };

  const server = createServer((request, response) => {
    void bodyOf(request).then((body) => {
      handle(request, response, body);
    });
  });
  Object.assign(standIn, await listenLocally(server));
  return standIn;
}
