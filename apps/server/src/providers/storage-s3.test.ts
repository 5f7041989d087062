import { createHash } from 'node:crypto';
import { HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startS3StandIn, type S3StandIn } from '../../test/stand-ins/s3';
import { loadConfig } from '../config';
import { s3Storage, s3StorageFromConfig, S3StorageError, type S3FileStorage, type S3StorageOptions } from './storage-s3';

const PNG_BYTES = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);
const ID = '0b4f7c7e-3c1a-4c52-9d1e-2a8f3b6c9d10';

let s3: S3StandIn;
const opened: S3FileStorage[] = [];
const open = async (overrides: Partial<S3StorageOptions> = {}): Promise<S3FileStorage> => {
  const storage = await s3Storage({
    bucket: s3.bucket,
    region: s3.region,
    endpoint: s3.url,
    prefix: 'rideway/',
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    timeoutMs: 2000,
    ...overrides,
  });
  opened.push(storage);
  return storage;
};
/** What the adapter's call failed with. */
const failureOf = async (work: Promise<unknown>): Promise<S3StorageError> => {
  const error = await work.then(() => undefined, (reason: unknown) => reason);
  if (!(error instanceof S3StorageError)) throw new Error(`expected an S3StorageError, got ${String(error)}`);
  return error;
};

beforeAll(async () => {
  s3 = await startS3StandIn();
});
afterEach(() => {
  s3.script = [];
  s3.requests = [];
});
afterAll(async () => {
  for (const storage of opened) storage.close();
  await s3.close();
});

describe('S3 file storage (issue 23 point 7)', () => {
  it('puts, gets and deletes under the prefix, with the image content type, signed as S3 checks', async () => {
    const storage = await open();
    const key = await storage.put('licences', PNG_BYTES, 'png');
    expect(key).toMatch(/^licences\/[0-9a-f-]{36}\.png$/);
    const object = s3.objects.get(`rideway/${key}`);
    expect(object?.contentType).toBe('image/png');
    expect(object?.bytes).toEqual(Buffer.from(PNG_BYTES));
    // Any other S3 reader sees the same: HeadObject answers the type, length and the MD5 ETag.
    const reader = new S3Client({ region: s3.region, endpoint: s3.url, forcePathStyle: true, credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } });
    const head = await reader.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: `rideway/${key}` }));
    reader.destroy();
    expect([head.ContentType, head.ContentLength, head.ETag]).toEqual(['image/png', PNG_BYTES.length, `"${createHash('md5').update(PNG_BYTES).digest('hex')}"`]);

    expect(Buffer.from((await storage.get(key)) ?? [])).toEqual(Buffer.from(PNG_BYTES));
    await storage.delete(key);
    expect(s3.objects.has(`rideway/${key}`)).toBe(false);
    expect(await storage.get(key)).toBeUndefined();
    // Deleting what is gone is S3's 204 again, not an error.
    await storage.delete(key);
    expect(s3.requests.map((request) => [request.method, request.status])).toEqual([['PUT', 200], ['HEAD', 200], ['GET', 200], ['DELETE', 204], ['GET', 404], ['DELETE', 204]]);
  });

  it('reads a missing file as undefined: S3 answered NoSuchKey', async () => {
    const storage = await open();
    expect(await storage.get(`profiles/${ID}.jpg`)).toBeUndefined();
    expect(s3.requests).toEqual([{ method: 'GET', key: `rideway/profiles/${ID}.jpg`, status: 404, code: 'NoSuchKey' }]);
  });

  it('refuses a key not in its canonical spelling before any request', async () => {
    const storage = await open();
    for (const key of [`/profiles/${ID}.jpg`, `profiles//${ID}.jpg`, `profiles/../${ID}.jpg`, `Profiles/${ID}.jpg`, `profiles/${ID}.svg`, `profiles%2F${ID}.jpg`, '']) {
      expect(await storage.get(key), key).toBeUndefined();
      await storage.delete(key);
    }
    await expect(storage.put('../licences', PNG_BYTES, 'png')).rejects.toThrow('not a storable file');
    await expect(storage.put('licences', PNG_BYTES, 'svg')).rejects.toThrow('not a storable file');
    expect(s3.requests).toEqual([]);
  });

  it('is refused with a wrong secret, an unknown key or the wrong region, stores nothing, and says so without the secret', async () => {
    const before = s3.objects.size;
    const wrongSecret = 'not-the-secret-0123456789abcdefghijklmn';
    const cases: [Partial<S3StorageOptions>, string, number][] = [
      [{ credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: wrongSecret } }, 'SignatureDoesNotMatch', 403],
      [{ credentials: { accessKeyId: 'AKIAUNKNOWN000000000', secretAccessKey: s3.secretAccessKey } }, 'InvalidAccessKeyId', 403],
      [{ region: 'eu-west-1' }, 'AuthorizationHeaderMalformed', 400],
      [{ bucket: 'someone-elses' }, 'NoSuchBucket', 404],
    ];
    for (const [overrides, code, status] of cases) {
      const storage = await open(overrides);
      const failed = await failureOf(storage.put('licences', PNG_BYTES, 'png'));
      expect([failed.failure, failed.s3Code, failed.status], code).toEqual(['refused', code, status]);
      expect(failed.message).not.toContain(wrongSecret);
      expect(failed.message).not.toContain(s3.secretAccessKey);
      expect((await storage.check())?.s3Code).toBe(code);
    }
    expect(s3.objects.size).toBe(before);
    // A 4xx is not retried: one request per call.
    expect(s3.requests.filter((request) => request.method === 'PUT')).toHaveLength(cases.length);
  });

  it('retries a 5xx as the SDK does, and reports S3 unavailable when it lasts', async () => {
    const storage = await open();
    s3.script = ['fail'];
    const key = await storage.put('trips', PNG_BYTES, 'png');
    expect(s3.requests.map((request) => request.status)).toEqual([500, 200]);
    s3.requests = [];
    s3.script = ['fail', 'fail', 'fail'];
    const failed = await failureOf(storage.get(key));
    expect([failed.failure, failed.s3Code, failed.status]).toEqual(['unavailable', 'InternalError', 500]);
    expect(s3.requests).toHaveLength(3);
  });

  it('gives up on an S3 that does not answer: an unanswered put is indeterminate, a get unavailable', async () => {
    const storage = await open({ timeoutMs: 200, maxAttempts: 1 });
    s3.script = ['hang'];
    const started = Date.now();
    const put = await failureOf(storage.put('trips', PNG_BYTES, 'png'));
    expect([put.failure, put.s3Code]).toEqual(['indeterminate', 'TimeoutError']);
    s3.script = ['hang'];
    const get = await failureOf(storage.get(`trips/${ID}.png`));
    expect([get.failure, get.s3Code]).toEqual(['unavailable', 'TimeoutError']);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('never takes a malformed answer for a file or for "missing": a cut-off body, a proxy\'s 404 page, altered bytes', async () => {
    const storage = await open({ maxAttempts: 1 });
    const key = await storage.put('cartypes', PNG_BYTES, 'png');
    for (const mode of ['truncated', 'notS3', 'corrupt'] as const) {
      s3.script = [mode];
      const failed = await failureOf(storage.get(key));
      // A 404 without S3's NoSuchKey is a wrong address (refused), not a missing file.
      expect([failed.failure, failed.status], mode).toEqual(mode === 'notS3' ? ['refused', 404] : ['unavailable', undefined]);
      expect(failed.s3Code).not.toBe('NoSuchKey');
    }
    expect(Buffer.from((await storage.get(key)) ?? [])).toEqual(Buffer.from(PNG_BYTES));
  });

  it('checks the bucket at start: a configuration S3 refuses stops it, an unreachable S3 is a warning', async () => {
    const env = { S3_BUCKET: s3.bucket, S3_ENDPOINT: s3.url, S3_ACCESS_KEY_ID: s3.accessKeyId, S3_SECRET_ACCESS_KEY: s3.secretAccessKey, S3_PREFIX: 'rideway', S3_TIMEOUT_MS: '500' };
    const warnings: string[] = [];
    const warn = (message: string) => {
      warnings.push(message);
    };
    const storage = await s3StorageFromConfig(loadConfig(env), warn);
    opened.push(storage);
    expect(warnings).toEqual([]);
    expect(s3.requests).toEqual([{ method: 'GET', key: 'rideway/.rideway-check', status: 404, code: 'NoSuchKey' }]);

    await expect(s3StorageFromConfig(loadConfig({ ...env, S3_BUCKET: 'not-there' }), warn)).rejects.toThrow(/Bad configuration: S3_BUCKET not-there: .*NoSuchBucket/);
    const wrongSecret = 'wrong-secret-wrong-secret';
    const refused = await s3StorageFromConfig(loadConfig({ ...env, S3_SECRET_ACCESS_KEY: wrongSecret }), warn).then(() => '', (error: unknown) => String(error));
    expect(refused).toContain('SignatureDoesNotMatch');
    expect(refused).not.toContain(wrongSecret);

    s3.script = ['fail', 'fail', 'fail'];
    opened.push(await s3StorageFromConfig(loadConfig(env), warn));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('InternalError');
  });

  it('is configured by S3_* variables: an http(s) endpoint without a path, a key pair together, a bucket with them', () => {
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig(env);
        return '';
      } catch (error) {
        return String(error);
      }
    };
    expect(loadConfig({ S3_BUCKET: 'photos', S3_PREFIX: 'a/b' }).S3_PREFIX).toBe('a/b/');
    expect(loadConfig({}).S3_BUCKET).toBeUndefined();
    expect(problems({ S3_BUCKET: 'photos', S3_ENDPOINT: 'ftp://minio:9000' })).toContain('S3_ENDPOINT');
    expect(problems({ S3_BUCKET: 'photos', S3_ENDPOINT: 'http://minio:9000/bucket' })).toContain('S3_ENDPOINT');
    expect(problems({ S3_BUCKET: 'photos', S3_ACCESS_KEY_ID: 'minioadmin' })).toContain('S3_SECRET_ACCESS_KEY');
    expect(problems({ S3_ENDPOINT: 'http://minio:9000' })).toContain('S3_BUCKET: required with S3_ENDPOINT');
    expect(problems({ S3_BUCKET: 'Photos_Bucket' })).toContain('S3_BUCKET');
    expect(problems({ S3_BUCKET: 'photos', S3_PREFIX: '../up' })).toContain('S3_PREFIX');
  });
});
