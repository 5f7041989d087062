import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkStamp, writeStamp } from '../../../scripts/build-stamp.mjs';

/**
 * Issue 21 point 3: `npm start` rebuilds an app only when its sources' contents changed, and on a
 * restart with nothing written since the last build it does not read them again (sizes and times
 * kept in the stamp).
 */
let root: string;
const INPUTS = ['src', 'package.json'];
const stampPath = () => join(root, 'dist', '.build-stamp');
const check = () => checkStamp(root, INPUTS, stampPath());
/** Builds: records the stamp as scripts/build-if-changed.mjs does after a build. */
const build = () => { writeStamp(stampPath(), check().stamp); };

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'rideway-stamp-'));
  mkdirSync(join(root, 'src', 'nested'), { recursive: true });
  mkdirSync(join(root, 'dist'));
  writeFileSync(join(root, 'src', 'a.ts'), 'export const a = 1;\n');
  writeFileSync(join(root, 'src', 'nested', 'b.ts'), 'export const b = 2;\n');
  writeFileSync(join(root, 'package.json'), '{}\n');
});
afterEach(() => { rmSync(root, { recursive: true, force: true }); });

describe('the build stamp', () => {
  it('says a build without a stamp, or after a change of contents, an added or a removed file, is not current', () => {
    expect(check().current).toBe(false);
    build();
    expect(check()).toMatchObject({ current: true, changedTimes: false });

    writeFileSync(join(root, 'src', 'a.ts'), 'export const a = 10;\n');
    expect(check().current).toBe(false);
    build();
    writeFileSync(join(root, 'src', 'nested', 'c.ts'), 'export const c = 3;\n');
    expect(check().current).toBe(false);
    build();
    rmSync(join(root, 'src', 'nested', 'c.ts'));
    expect(check().current).toBe(false);
  });

  it('takes the same contents under new times (a checkout, a copy) as current, and keeps the new times', () => {
    build();
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(root, 'src', 'a.ts'), later, later);
    const touched = check();
    expect(touched).toMatchObject({ current: true, changedTimes: true });
    expect(touched.stamp.files['src/a.ts']?.[1]).toBe(statSync(join(root, 'src', 'a.ts')).mtimeMs);
    writeStamp(stampPath(), touched.stamp);
    expect(check()).toMatchObject({ current: true, changedTimes: false });
  });

  it('reads no contents when no size or time moved: a write that kept both is not seen (the trade-off, as make\'s)', () => {
    const file = join(root, 'src', 'a.ts');
    // A whole millisecond, so setting it again gives the same time to the nanosecond.
    const then = new Date(Math.floor(Date.now() / 1000) * 1000);
    utimesSync(file, then, then);
    build();
    writeFileSync(file, 'export const a = 2;\n');
    utimesSync(file, then, then);
    expect(check()).toMatchObject({ current: true, changedTimes: false });
    // Once the time moves, the contents decide.
    utimesSync(file, new Date(), new Date(Date.now() + 1000));
    expect(check().current).toBe(false);
  });

  it('leaves test files out, and takes a stamp from before the times were kept (the hash alone)', () => {
    build();
    writeFileSync(join(root, 'src', 'a.test.ts'), 'it();\n');
    expect(check()).toMatchObject({ current: true, changedTimes: false });
    const { hash } = JSON.parse(readFileSync(stampPath(), 'utf8')) as { hash: string };
    writeFileSync(stampPath(), hash);
    expect(check()).toMatchObject({ current: true, changedTimes: true });
  });
});
