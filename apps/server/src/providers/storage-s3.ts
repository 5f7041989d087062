import { randomUUID } from 'node:crypto';
import type { S3Client } from '@aws-sdk/client-s3';
import { IMAGE_CONTENT_TYPES } from '@rideway/contract';
import type { Config } from '../config';
import { parseFileKey, StorageError, type FileStorage } from './storage';

/** Where and how the files are kept on S3 (issue 23 point 7). */
export type S3StorageOptions = {
  bucket: string;
  /** The signature's region (`auto` for R2). */
  region: string;
  /** An S3-compatible service (MinIO, Ceph, R2): its buckets are then addressed by path, `<endpoint>/<bucket>/<key>`. */
  endpoint?: string;
  /** Prepended to every key in the bucket (`rideway/`), so deployments can share one. */
  prefix?: string;
  /** A key pair; without one, the AWS SDK's own chain (AWS_* variables, a profile, an instance or task role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** Each attempt (connecting, waiting for the answer, a stalled body) gives up after this long. */
  timeoutMs: number;
  /** Attempts per call, the SDK retrying 5xx, throttling and timeouts between them; 3 by default. */
  maxAttempts?: number;
};

/**
 * How a call failed, as the payment adapters sort theirs: `refused` is S3's definite no (4xx:
 * credentials, permissions, no such bucket; retrying will not help), `unavailable` is S3 or the
 * way to it failing (5xx after the SDK's retries, no connection), `indeterminate` is a put whose
 * answer never came: the object may be stored (an orphan no row names).
 */
export type S3Failure = 'refused' | 'unavailable' | 'indeterminate';

/** A failed call, with S3's error code and status; it carries nothing of the request (no credentials, no signature). */
export class S3StorageError extends StorageError {
  constructor(
    readonly failure: S3Failure,
    readonly s3Code: string,
    readonly status: number | undefined,
    message: string,
  ) {
    super(message);
    this.name = 'S3StorageError';
  }
}

export type S3FileStorage = FileStorage & {
  /**
   * Reads a key that is never a file: S3's NoSuchKey proves the bucket, the endpoint and the
   * signature. GetObject rather than HeadObject, because a HEAD's errors carry no body and a
   * missing bucket would look like a missing key. Undefined when all is well.
   */
  check: () => Promise<S3StorageError | undefined>;
  /** Closes the SDK's pooled connections. */
  close: () => void;
};

/** S3's answers that mean the configuration is wrong, not that S3 is busy or a policy is narrow. */
const MISCONFIGURED = new Set(['NoSuchBucket', 'InvalidAccessKeyId', 'SignatureDoesNotMatch', 'AuthorizationHeaderMalformed', 'PermanentRedirect', 'InvalidBucketName']);

const CHECK_KEY = '.rideway-check';

function failureOf(operation: 'put' | 'get' | 'delete' | 'check', key: string, error: unknown): S3StorageError {
  const s3Code = error instanceof Error ? error.name : 'Error';
  const status = (error as { $metadata?: { httpStatusCode?: number } } | undefined)?.$metadata?.httpStatusCode;
  // S3's own answer has a status; without one the connection failed, timed out or broke mid-answer.
  const failure: S3Failure = status !== undefined && status >= 400 && status < 500 ? 'refused' : status === undefined && operation === 'put' ? 'indeterminate' : 'unavailable';
  const detail = status === undefined ? `${s3Code}: ${error instanceof Error ? error.message : String(error)}` : `${s3Code} (HTTP ${String(status)})`;
  return new S3StorageError(failure, s3Code, status, `S3 ${operation} of ${key} failed, ${failure}: ${detail}`);
}

/**
 * The file storage port on S3 or an S3-compatible service, through the AWS SDK (v3), which signs
 * every request (Signature Version 4), retries 5xx and throttling, and checks a CRC32 of each
 * upload and download. Keys are the port's one canonical spelling, checked before any request;
 * a missing file is S3's NoSuchKey and nothing else (a proxy's 404 page is an error, not "gone").
 * The SDK is imported here, on first use: a server storing on disk never loads it (issue 21 point 4).
 */
export async function s3Storage(options: S3StorageOptions): Promise<S3FileStorage> {
  const sdk = await import('@aws-sdk/client-s3');
  const client: S3Client = new sdk.S3Client({
    region: options.region,
    ...(options.endpoint ? { endpoint: options.endpoint, forcePathStyle: true } : {}),
    ...(options.credentials ? { credentials: options.credentials } : {}),
    maxAttempts: options.maxAttempts ?? 3,
    // Without throwOnRequestTimeout the handler only warns when requestTimeout passes; socketTimeout
    // covers a body that stops half-way, which requestTimeout (headers only) does not.
    requestHandler: { connectionTimeout: options.timeoutMs, requestTimeout: options.timeoutMs, socketTimeout: options.timeoutMs, throwOnRequestTimeout: true },
  });
  const prefix = options.prefix ?? '';
  const Bucket = options.bucket;

  return {
    async put(folder, bytes, extension) {
      const key = `${folder}/${randomUUID()}.${extension}`;
      const ContentType = IMAGE_CONTENT_TYPES.get(extension);
      if (!parseFileKey(key) || !ContentType) throw new Error(`not a storable file: ${folder}, ${extension}`);
      try {
        await client.send(new sdk.PutObjectCommand({ Bucket, Key: `${prefix}${key}`, Body: bytes, ContentType, ContentLength: bytes.length }));
      } catch (error) {
        throw failureOf('put', key, error);
      }
      return key;
    },
    async get(key) {
      if (!parseFileKey(key)) return undefined;
      try {
        const answer = await client.send(new sdk.GetObjectCommand({ Bucket, Key: `${prefix}${key}` }));
        if (!answer.Body) throw new Error('GetObject answered without a body');
        return await answer.Body.transformToByteArray();
      } catch (error) {
        if (error instanceof sdk.NoSuchKey) return undefined;
        throw failureOf('get', key, error);
      }
    },
    async delete(key) {
      if (!parseFileKey(key)) return;
      try {
        // S3 answers 204 for a key that is not there too.
        await client.send(new sdk.DeleteObjectCommand({ Bucket, Key: `${prefix}${key}` }));
      } catch (error) {
        throw failureOf('delete', key, error);
      }
    },
    async check() {
      try {
        const answer = await client.send(new sdk.GetObjectCommand({ Bucket, Key: `${prefix}${CHECK_KEY}` }));
        await answer.Body?.transformToByteArray();
        return undefined;
      } catch (error) {
        return error instanceof sdk.NoSuchKey ? undefined : failureOf('check', `${prefix}${CHECK_KEY}`, error);
      }
    },
    close: () => {
      client.destroy();
    },
  };
}

/**
 * The storage main.ts uses when S3_BUCKET is set. Its check runs once: a configuration S3 refuses
 * outright (no such bucket, an unknown key, a wrong secret or region) stops the start, as a bad
 * variable does; anything else (S3 unreachable now, a policy without s3:ListBucket, under which a
 * missing key is 403) is `warn`ed and the server starts.
 */
export async function s3StorageFromConfig(config: Config, warn: (message: string) => void): Promise<S3FileStorage> {
  if (!config.S3_BUCKET) throw new Error('S3_BUCKET is not set');
  const storage = await s3Storage({
    bucket: config.S3_BUCKET,
    region: config.S3_REGION,
    endpoint: config.S3_ENDPOINT,
    prefix: config.S3_PREFIX,
    credentials: config.S3_ACCESS_KEY_ID && config.S3_SECRET_ACCESS_KEY ? { accessKeyId: config.S3_ACCESS_KEY_ID, secretAccessKey: config.S3_SECRET_ACCESS_KEY } : undefined,
    timeoutMs: config.S3_TIMEOUT_MS,
  });
  const problem = await storage.check();
  if (problem && MISCONFIGURED.has(problem.s3Code)) {
    storage.close();
    throw new Error(`Bad configuration: S3_BUCKET ${config.S3_BUCKET}: ${problem.message}`);
  }
  if (problem) warn(`files on S3 (${config.S3_BUCKET}) could not be checked: ${problem.message}`);
  return storage;
}
