// What `npm start` knows of its last builds (scripts/build-if-changed.mjs, issue 21 point 3).
// A build is known by a hash of its inputs' contents: contents, not times, because a checkout or a
// copy changes every file's time without changing what it builds. Hashing every source file reads
// them all (about a third of a second, most of a restart's own work), so the stamp also keeps each
// input's size and modification time as they were hashed: when none differs, nothing was written
// since, and the contents are not read again. When any differs, the contents decide.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** @typedef {{ hash: string, files: Record<string, [number, number] | undefined> }} Stamp */

/** Tests are not part of a build: changing one rebuilds nothing. */
const isTest = (/** @type {string} */ path) => /\.test\.tsx?$/.test(path);

/**
 * Every input file under `inputs` (files or folders, relative to `root`), in a fixed order, with
 * its size and modification time.
 * @param {string} root @param {readonly string[]} inputs
 * @returns {{ path: string, size: number, mtimeMs: number }[]}
 */
function inputFiles(root, inputs) {
  /** @type {{ path: string, size: number, mtimeMs: number }[]} */
  const files = [];
  /** @param {string} path */
  const visit = (path) => {
    if (!existsSync(path)) return;
    const stats = statSync(path);
    if (stats.isDirectory()) {
      for (const entry of readdirSync(path).sort((a, b) => a.localeCompare(b))) visit(join(path, entry));
    } else if (!isTest(path)) files.push({ path: relative(root, path), size: stats.size, mtimeMs: stats.mtimeMs });
  };
  for (const input of inputs) visit(join(root, input));
  return files;
}

/** @param {string} stampPath @returns {Stamp | null} */
function readStamp(stampPath) {
  if (!existsSync(stampPath)) return null;
  const text = readFileSync(stampPath, 'utf8');
  // A stamp from before the times were kept is the hash alone.
  if (!text.startsWith('{')) return { hash: text.trim(), files: {} };
  const parsed = /** @type {unknown} */ (JSON.parse(text));
  return isStamp(parsed) ? parsed : null;
}

/** @param {unknown} value @returns {value is Stamp} */
const isStamp = (value) => typeof value === 'object' && value !== null && 'hash' in value && typeof value.hash === 'string' && 'files' in value && typeof value.files === 'object' && value.files !== null;

/**
 * Whether the build stamped at `stampPath` is of the current inputs, and the stamp that says so
 * now (to write once the build is done, or at once when it is current but times moved).
 * @param {string} root @param {readonly string[]} inputs @param {string} stampPath
 * @returns {{ current: boolean, stamp: Stamp, changedTimes: boolean }}
 */
export function checkStamp(root, inputs, stampPath) {
  const files = inputFiles(root, inputs);
  const recorded = readStamp(stampPath);
  const known = recorded?.files ?? {};
  const sameTimes = files.length === Object.keys(known).length && files.every(({ path, size, mtimeMs }) => known[path]?.[0] === size && known[path][1] === mtimeMs);
  if (recorded && sameTimes) return { current: true, stamp: recorded, changedTimes: false };
  const hash = createHash('sha256');
  for (const file of files) hash.update(file.path).update('\0').update(readFileSync(join(root, file.path))).update('\0');
  /** @type {Stamp} */
  const stamp = { hash: hash.digest('hex'), files: Object.fromEntries(files.map(({ path, size, mtimeMs }) => [path, [size, mtimeMs]])) };
  return { current: recorded?.hash === stamp.hash, stamp, changedTimes: true };
}

/** @param {string} stampPath @param {Stamp} stamp */
export function writeStamp(stampPath, stamp) {
  writeFileSync(stampPath, JSON.stringify(stamp));
}
