import { randomUUID } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The file storage port: uploaded images (licences, profile and trip photos). */
export type FileStorage = {
  /** Stores the bytes under a folder and returns the stored file's key. */
  put: (folder: string, bytes: Uint8Array, extension: string) => Promise<string>;
  get: (key: string) => Promise<Uint8Array | undefined>;
};

/** The embedded default: files on disk below DATA_DIR/files. */
export function diskStorage(root: string): FileStorage {
  return {
    async put(folder, bytes, extension) {
      const safeFolder = folder.replace(/[^a-zA-Z0-9/_-]/g, '_');
      const key = `${safeFolder}/${randomUUID()}.${extension}`;
      await mkdir(join(root, safeFolder), { recursive: true });
      await writeFile(join(root, key), bytes);
      return key;
    },
    async get(key) {
      if (!/^[a-zA-Z0-9/_-]+\.[a-z]+$/.test(key) || key.includes('..')) return undefined;
      try {
        return await readFile(join(root, key));
      } catch {
        return undefined;
      }
    },
  };
}

/** An in-memory store for tests and the memory:// database. */
export function memoryStorage(): FileStorage {
  const files = new Map<string, Uint8Array>();
  return {
    put(folder, bytes, extension) {
      const key = `${folder}/${randomUUID()}.${extension}`;
      files.set(key, bytes);
      return Promise.resolve(key);
    },
    get: (key) => Promise.resolve(files.get(key)),
  };
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
