import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';

/**
 * Issue 3, tried as a new user would: `npm start` on an empty data folder migrates, seeds the
 * demo, and prints logins that work, within a minute.
 */
test('npm start on an empty data folder prints demo logins that sign in', async ({ request }) => {
  test.setTimeout(90_000);
  const dataDir = mkdtempSync(join(tmpdir(), 'rideway-first-start-'));
  const port = 3290;
  // A person's shell: no npm_* variables from the runner that launched this test.
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_')));
  const repoRoot = join(import.meta.dirname, '..', '..');
  const server = spawn('npm', ['start'], { cwd: repoRoot, env: { ...env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn', DATABASE_URL: '', REDIS_URL: '' }, detached: true });
  try {
    const started = Date.now();
    const output = await new Promise<string>((resolve, reject) => {
      let text = '';
      const timer = setTimeout(() => { reject(new Error(`no demo logins within 60 s:\n${text}`)); }, 60_000);
      server.stdout.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        if (/rider2@rideway\.demo/.test(text)) {
          clearTimeout(timer);
          resolve(text);
        }
      });
      server.stderr.on('data', (chunk: Buffer) => {
        text += chunk.toString();
      });
      server.on('exit', (code) => { reject(new Error(`server exited with ${code}:\n${text}`)); });
    });
    console.log(`demo logins printed after ${((Date.now() - started) / 1000).toFixed(1)} s`);
    expect(output).toContain(`Rideway is running at http://127.0.0.1:${port}`);
    const password = /password for all: (\S+)\)/.exec(output)?.[1] ?? '';
    const emails = [...output.matchAll(/^\s+(\w+)\s+(\S+@rideway\.demo)$/gm)].map((m) => ({ role: m[1], email: m[2] }));
    expect(emails.map((e) => e.role)).toEqual(['admin', 'fleetadmin', 'driver', 'driver', 'driver', 'driver', 'driver', 'rider', 'rider']);
    for (const { role, email } of emails) {
      const login = await request.post(`http://127.0.0.1:${port}/api/auth/login`, { data: { email, password } });
      expect(login.status(), email).toBe(200);
      expect((await login.json()).user.usertype).toBe(role);
    }
  } finally {
    if (server.pid && server.exitCode === null) process.kill(-server.pid, 'SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
});
