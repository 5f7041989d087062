import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerWebApp } from '../../src/http/web-app';

/** Issue 21 point 5: what a phone downloads. The built app's files are sent as the build's brotli or gzip copy. */
describe("the built app's files", () => {
  const root = mkdtempSync(join(tmpdir(), 'rideway-web-'));
  const script = `console.log(${JSON.stringify('x'.repeat(4000))});`;
  const app = Fastify().withTypeProvider<ZodTypeProvider>();
  beforeAll(async () => {
    mkdirSync(join(root, 'assets'));
    writeFileSync(join(root, 'index.html'), '<!doctype html><title>app</title>');
    writeFileSync(join(root, 'assets', 'app-1a2b.js'), script);
    writeFileSync(join(root, 'assets', 'app-1a2b.js.br'), brotliCompressSync(script));
    writeFileSync(join(root, 'assets', 'app-1a2b.js.gz'), gzipSync(script));
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    await registerWebApp(app, () => Promise.resolve('status'), root);
  });
  afterAll(async () => { await app.close(); rmSync(root, { recursive: true, force: true }); });

  it("sends the build's brotli copy, then gzip, then the file itself, each with Vary and the year-long cache", async () => {
    const brotli = await app.inject({ method: 'GET', url: '/assets/app-1a2b.js', headers: { 'accept-encoding': 'gzip, br' } });
    expect([brotli.headers['content-encoding'], brotli.headers.vary, brotli.headers['cache-control']]).toEqual(['br', 'accept-encoding', 'public, max-age=31536000, immutable']);
    expect(brotliDecompressSync(brotli.rawPayload).toString('utf8')).toBe(script);
    expect((await app.inject({ method: 'GET', url: '/assets/app-1a2b.js', headers: { 'accept-encoding': 'gzip' } })).headers['content-encoding']).toBe('gzip');
    const plain = await app.inject({ method: 'GET', url: '/assets/app-1a2b.js' });
    expect([plain.headers['content-encoding'], plain.body]).toEqual([undefined, script]);
  });
});
