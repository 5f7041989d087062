import { mkdtemp, readdir, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diskStorage, memoryStorage, normaliseFileKey, parseFileKey, withStoredFile, type FileStorage } from './storage';

const ID = '0b4f7c7e-3c1a-4c52-9d1e-2a8f3b6c9d10';
const PNG_BYTES = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);

describe('stored file keys have one spelling', () => {
  it('accepts only <folder>/<uuid>.<ext>', () => {
    expect(parseFileKey(`licences/${ID}.png`)).toEqual({ key: `licences/${ID}.png`, folder: 'licences', extension: 'png' });
    for (const key of [`/licences/${ID}.png`, `licences//${ID}.png`, `./licences/${ID}.png`, `Licences/${ID}.png`, `licences/${ID.toUpperCase()}.png`, `licences/${ID}.PNG`, `licences/${ID}.svg`, `a/licences/${ID}.png`, `licences/../${ID}.png`, `licences%2F${ID}.png`, '']) {
      expect(parseFileKey(key), key).toBeUndefined();
    }
  });

  it('normalises a URL path once: empty and . segments dropped, .. and backslashes refused', () => {
    for (const path of [`licences/${ID}.png`, `/licences/${ID}.png`, `//licences/${ID}.png`, `./licences/${ID}.png`, `licences/./${ID}.png`, `licences//${ID}.png`]) {
      expect(normaliseFileKey(path)?.key, path).toBe(`licences/${ID}.png`);
    }
    for (const path of [`cartypes/../licences/${ID}.png`, `..//licences/${ID}.png`, `licences\\${ID}.png`, `licences/${ID}.png/..`]) {
      expect(normaliseFileKey(path), path).toBeUndefined();
    }
  });
});

describe.each([
  ['disk', () => diskStorage(folder)],
  ['memory', () => memoryStorage()],
] as const)('%s storage', (_name, make) => {
  let storage: FileStorage;
  beforeAll(() => {
    storage = make();
  });

  it('stores, reads and deletes by the canonical key only', async () => {
    const key = await storage.put('licences', PNG_BYTES, 'png');
    expect(parseFileKey(key)?.folder).toBe('licences');
    expect(Buffer.from((await storage.get(key)) ?? [])).toEqual(Buffer.from(PNG_BYTES));
    for (const spelling of [`/${key}`, `./${key}`, key.replace('/', '//'), key.toUpperCase()]) expect(await storage.get(spelling), spelling).toBeUndefined();
    await storage.delete(key);
    expect(await storage.get(key)).toBeUndefined();
  });

  it('refuses to store under a folder or extension that would not make a canonical key', async () => {
    await expect(storage.put('../licences', PNG_BYTES, 'png')).rejects.toThrow();
    await expect(storage.put('licences', PNG_BYTES, 'svg')).rejects.toThrow();
  });

  it('withStoredFile removes the file when the write that uses it fails', async () => {
    let stored = '';
    await expect(
      withStoredFile(storage, { folder: 'licences', bytes: PNG_BYTES, extension: 'png' }, (key) => {
        stored = key;
        return Promise.reject(new Error('the database said no'));
      }),
    ).rejects.toThrow('the database said no');
    expect(stored).not.toBe('');
    expect(await storage.get(stored)).toBeUndefined();
    const kept = await withStoredFile(storage, { folder: 'licences', bytes: PNG_BYTES, extension: 'png' }, (key) => Promise.resolve(key));
    expect(await storage.get(kept)).toBeDefined();
  });
});

let folder = '';
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'rideway-storage-'));
});
afterAll(() => rm(folder, { recursive: true, force: true }));

describe('disk storage and the file system', () => {
  it('does not read a file outside the canonical keys, even one placed beside them', async () => {
    const storage = diskStorage(folder);
    await mkdir(join(folder, 'licences'), { recursive: true });
    await writeFile(join(folder, 'licences', 'secret.png'), PNG_BYTES);
    expect(await storage.get('licences/secret.png')).toBeUndefined();
    expect(await readdir(join(folder, 'licences'))).toContain('secret.png');
  });
});
