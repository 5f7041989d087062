import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Security-critical: a stored file's key has exactly one spelling, `<folder>/<uuid>.<ext>`
 * (lower-case folder, lower-case uuid, png, jpg or webp). The stores refuse every other
 * spelling, so no doubled slash, `./`, `..`, upper case or encoded separator reaches a file.
 */
const KEY = /^([a-z]+)\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.(png|jpg|webp)$/;

export type FileKey = { key: string; folder: string; extension: string };

/**
 * A store that could not take or give a file (a remote store out of reach, refusing, or silent):
 * nothing was written by the request, and it answers 503 service_unavailable, never a 500.
 */
export class StorageError extends Error {}

/** The key's parts when it is in its one canonical spelling, else undefined. */
export function parseFileKey(key: string): FileKey | undefined {
  const match = KEY.exec(key);
  if (!match?.[1] || !match[3]) return undefined;
  return { key, folder: match[1], extension: match[3] };
}

/**
 * A key as a URL path spells it (`/api/files/<here>`), normalised once: empty and `.` segments
 * dropped; a `..` or backslash refused. The result is canonical or undefined.
 */
export function normaliseFileKey(path: string): FileKey | undefined {
  if (path.includes('\\')) return undefined;
  const segments = path.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.includes('..')) return undefined;
  return parseFileKey(segments.join('/'));
}

/** Where a stored file is served: the URL a row keeps for it. */
const FILES_URL_PREFIX = '/api/files/';
export const fileUrl = (key: string): string => `${FILES_URL_PREFIX}${key}`;

/** The stored file a kept URL names, if it names one (an image given as an outside URL names none). */
export const storedFileOf = (url: string | null | undefined): FileKey | undefined =>
  url?.startsWith(FILES_URL_PREFIX) ? normaliseFileKey(url.slice(FILES_URL_PREFIX.length)) : undefined;

/** Deletes the stored file a replaced or removed row's URL named; a failure leaves an orphan, never an error. */
export async function deleteStoredFileOf(storage: FileStorage, url: string | null | undefined): Promise<void> {
  const file = storedFileOf(url);
  if (file) await storage.delete(file.key).catch(() => undefined);
}

/** The file storage port: uploaded images (licences, profile and trip photos). */
export type FileStorage = {
  /** Stores the bytes under a folder and returns the stored file's key. */
  put: (folder: string, bytes: Uint8Array, extension: string) => Promise<string>;
  /** The file's bytes; undefined for a missing file or a key not in its canonical spelling. */
  get: (key: string) => Promise<Uint8Array | undefined>;
  /** Removes the file (nothing happens for a missing one). */
  delete: (key: string) => Promise<void>;
};

function newKey(folder: string, extension: string): string {
  const key = `${folder}/${randomUUID()}.${extension}`;
  if (!parseFileKey(key)) throw new Error(`not a storable file: ${folder}, ${extension}`);
  return key;
}

/** The embedded default: files on disk below DATA_DIR/files. */
export function diskStorage(root: string): FileStorage {
  return {
    async put(folder, bytes, extension) {
      const key = newKey(folder, extension);
      await mkdir(join(root, folder), { recursive: true });
      try {
        await writeFile(join(root, key), bytes, { flag: 'wx' });
      } catch (error) {
        // A write cut short (a full disk) leaves no partial file behind.
        await rm(join(root, key), { force: true });
        throw error;
      }
      return key;
    },
    async get(key) {
      if (!parseFileKey(key)) return undefined;
      try {
        return await readFile(join(root, key));
      } catch {
        return undefined;
      }
    },
    async delete(key) {
      if (parseFileKey(key)) await rm(join(root, key), { force: true });
    },
  };
}

/** An in-memory store for tests and the memory:// database. */
export function memoryStorage(): FileStorage {
  const files = new Map<string, Uint8Array>();
  return {
    put: (folder, bytes, extension) =>
      Promise.resolve().then(() => {
        const key = newKey(folder, extension);
        files.set(key, bytes);
        return key;
      }),
    get: (key) => Promise.resolve(parseFileKey(key) ? files.get(key) : undefined),
    delete(key) {
      files.delete(key);
      return Promise.resolve();
    },
  };
}

/**
 * Stores the file, then runs `use` with its key (the database write that refers to it); when
 * `use` fails the file is removed again, so a failed request leaves no file. Run every check
 * before calling this: the bytes are the last thing stored.
 */
export async function withStoredFile<T>(
  storage: FileStorage,
  file: { folder: string; bytes: Uint8Array; extension: string },
  use: (key: string) => Promise<T>,
): Promise<T> {
  const key = await storage.put(file.folder, file.bytes, file.extension);
  try {
    return await use(key);
  } catch (error) {
    await storage.delete(key).catch(() => undefined);
    throw error;
  }
}

const IMAGE_SIGNATURES: { extension: string; bytes: number[] }[] = [
  { extension: 'png', bytes: [0x89, 0x50, 0x4e, 0x47] },
  { extension: 'jpg', bytes: [0xff, 0xd8, 0xff] },
  { extension: 'webp', bytes: [0x52, 0x49, 0x46, 0x46] },
];

/** The image a data URL carries (PNG, JPEG or WebP, by its bytes), or undefined. */
export function decodeImageDataUrl(value: string, maxBytes: number): { bytes: Uint8Array; extension: string } | undefined {
  const match = /^data:image\/(png|jpeg|jpg|webp);base64,([A-Za-z0-9+/=]+)$/.exec(value);
  if (!match?.[2]) return undefined;
  const bytes = Buffer.from(match[2], 'base64');
  if (bytes.length === 0 || bytes.length > maxBytes) return undefined;
  const kind = IMAGE_SIGNATURES.find((signature) => signature.bytes.every((byte, i) => bytes[i] === byte));
  return kind ? { bytes, extension: kind.extension } : undefined;
}
