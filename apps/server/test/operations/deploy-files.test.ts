import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configSchema } from '../../src/config';

/**
 * Issue 23 point 5: the deployment files hold what docs/operations.md says they do. The image is
 * built and run for real by `node scripts/dockerfile-dry-run.mjs` (minutes: npm ci twice, both
 * builds), and the proxy topology by deploy/local-topology.sh (needs Caddy); this test reads the
 * same Dockerfile through the dry run's own parser (`--plan`), so what it checks is what the dry
 * run runs.
 */
const ROOT = join(import.meta.dirname, '..', '..', '..', '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

type Plan = {
  globalArgs: Record<string, string>;
  stages: { name: string; base: string; instructions: { keyword: string; args: string }[] }[];
  context: string[];
};
const plan = JSON.parse(execFileSync(process.execPath, [join(ROOT, 'scripts', 'dockerfile-dry-run.mjs'), '--plan'], { encoding: 'utf8' })) as Plan;
const runtime = plan.stages.at(-1);
/** The node flags `npm start` runs the compiled server with: every other way of starting it says the same. */
const START_FLAGS = /\bexec node ((?:--\S+ )*)dist\/main\.js\b/.exec((JSON.parse(read('package.json')) as { scripts: { start: string } }).scripts.start)?.[1]?.trim().split(' ') ?? [];
const last = (keyword: string) => runtime?.instructions.filter((instruction) => instruction.keyword === keyword).at(-1)?.args ?? '';

describe('the Dockerfile and its build context', () => {
  it('builds in stages and runs the compiled server on Node LTS, not as root, with a liveness check', () => {
    expect(plan.stages.map((stage) => stage.name)).toEqual(['manifests', 'deps', 'build', 'production-deps', 'runtime']);
    expect(runtime?.base).toBe(`node:${plan.globalArgs.NODE_VERSION ?? ''}-bookworm-slim`);
    // An even major is an LTS line; the repository's engines ask for 20.19 or newer.
    expect(Number(plan.globalArgs.NODE_VERSION) % 2).toBe(0);
    expect(Number(plan.globalArgs.NODE_VERSION)).toBeGreaterThanOrEqual(20);
    expect(last('USER')).toMatch(/^[1-9]\d*:\d+$/);
    expect(last('HEALTHCHECK')).toContain('/api/health/live');
    expect(START_FLAGS).toEqual(['--enable-source-maps', '--max-semi-space-size=4']);
    expect(JSON.parse(last('CMD'))).toEqual(['node', ...START_FLAGS, 'dist/main.js']);
    expect(last('EXPOSE')).toBe('3000');
    // The runtime stage takes the production dependencies and the two builds, nothing else.
    const copies = runtime?.instructions.filter((instruction) => instruction.keyword === 'COPY').map((instruction) => instruction.args) ?? [];
    expect(copies.every((args) => args.startsWith('--from='))).toBe(true);
    expect(copies).toContain('--from=production-deps /app/node_modules node_modules');
    expect(plan.stages.find((stage) => stage.name === 'production-deps')?.instructions.map((i) => i.args)).toContainEqual(expect.stringContaining('--omit=dev'));
  });

  it('bakes in no secret: the image sets none of the secrets, and the context holds no env file, data or local build', () => {
    const env = plan.stages.flatMap((stage) => stage.instructions.filter((instruction) => instruction.keyword === 'ENV').map((instruction) => instruction.args)).join(' ');
    for (const secret of ['PAYMENT_SECRET', 'TWO_FACTOR_KEY', 'DATABASE_URL', 'METRICS_TOKEN', 'STRIPE_SECRET_KEY', 'S3_SECRET_ACCESS_KEY']) expect(env).not.toContain(secret);
    expect(plan.context).toContain('package-lock.json');
    expect(plan.context).toContain('apps/server/src/main.ts');
    expect(plan.context).toContain('apps/server/src/db/migrations/0000_init.sql');
    expect(plan.context).toContain('apps/web/index.html');
    const leaked = plan.context.filter((path) => /(^|\/)(node_modules|dist|data|coverage|test-results|\.git)\//.test(path) || /(^|\/)(\.env|[^/]*\.env)$/.test(path) || path.startsWith('deploy/') || path.startsWith('apps/server/test/'));
    expect(leaked).toEqual([]);
  });
});

describe('deploy/rideway.env.example', () => {
  const lines = read('deploy/rideway.env.example').split('\n');

  it('names every variable the server reads', () => {
    const named = new Set(lines.map((line) => /^#?\s?([A-Z][A-Z0-9_]+)=/.exec(line)?.[1]).filter(Boolean));
    const missing = Object.keys(configSchema.shape).filter((name) => !named.has(name));
    expect(missing).toEqual([]);
  });

  it('holds no value: each line that sets a variable sets it empty, so an unfilled copy refuses to start', () => {
    const set = lines.filter((line) => /^[A-Z][A-Z0-9_]*=/.test(line));
    expect(set.filter((line) => !line.endsWith('='))).toEqual([]);
    expect(set.map((line) => line.slice(0, -1))).toEqual(['POSTGRES_PASSWORD', 'RIDEWAY_DOMAIN', 'PAYMENT_SECRET', 'TWO_FACTOR_KEY', 'PUBLIC_URL']);
  });
});

describe('compose.yaml, the Caddyfile and the systemd unit', () => {
  it('compose takes its secrets from the env file kept out of git, and puts Caddy in front of two app processes', () => {
    const compose = read('compose.yaml');
    expect(compose).toContain('env_file: [deploy/rideway.env]');
    expect(compose).toMatch(/^ {2}app1:$/m);
    expect(compose).toMatch(/^ {2}app2:$/m);
    expect(compose).toContain('./deploy/Caddyfile:/etc/caddy/Caddyfile:ro');
    expect(read('.gitignore')).toMatch(/^deploy\/rideway\.env$/m);
  });

  it('Caddy balances on readiness, by open connections', () => {
    const caddyfile = read('deploy/Caddyfile');
    expect(caddyfile).toMatch(/^\s+health_uri \/api\/health\/ready$/m);
    expect(caddyfile).toMatch(/^\s+lb_policy least_conn$/m);
  });

  it('the unit runs dist/main.js as its own user, restarts on failure, and may write only its data folder', () => {
    const unit = read('deploy/rideway.service');
    for (const line of ['User=rideway', 'EnvironmentFile=/etc/rideway/rideway.env', 'Restart=on-failure', 'NoNewPrivileges=yes', 'ProtectSystem=strict', 'ReadWritePaths=/var/lib/rideway']) {
      expect(unit).toMatch(new RegExp(`^${line}$`, 'm'));
    }
    expect(unit).toMatch(new RegExp(`^ExecStart=/usr/bin/node ${START_FLAGS.join(' ')} dist/main\\.js$`, 'm'));
    expect((JSON.parse(read('apps/server/package.json')) as { scripts: { start: string } }).scripts.start).toBe(`node ${START_FLAGS.join(' ')} dist/main.js`);
    expect(unit).toMatch(/^Environment=.*DATA_DIR=\/var\/lib\/rideway/m);
  });
});
