import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { DEMO_PORT as demoPort, FACEBOOK_PORT as facebookPort, GOOGLE_OIDC_PORT as googleOidcPort, PORT as port } from './support/ports';

/**
 * Browser tests in the system's Chromium (Debian's package; Playwright's own browser download is
 * not used) against the real server, started fresh on its embedded defaults.
 */
export default defineConfig({
  testDir: './tests',
  outputDir: './test-results/artifacts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list'], ['json', { outputFile: './test-results/report.json' }]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    ...devices['Desktop Chrome'],
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      // Chromium's background calls to outside hosts are refused on a closed network; don't make them.
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
    // A trace costs a fifth of the suite's time (DOM snapshots at every action: 256 s against 218 s
    // for the accessibility and forms specs): it is recorded when asked for (E2E_TRACE=retain-on-failure),
    // and a failing test keeps a screenshot of its page either way.
    trace: process.env.E2E_TRACE === 'retain-on-failure' || process.env.E2E_TRACE === 'on' ? process.env.E2E_TRACE : 'off',
    screenshot: 'only-on-failure',
  },
  webServer: [
    {
      // Facebook's login dialog and Graph API, played locally.
      command: 'npx tsx support/fake-facebook.ts',
      url: `http://127.0.0.1:${facebookPort}/health`,
      env: { FAKE_FACEBOOK_PORT: String(facebookPort) },
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      // Google's OpenID provider, played locally (issue 20).
      command: 'npx tsx support/fake-oidc.ts',
      url: `http://127.0.0.1:${googleOidcPort}/health`,
      env: { FAKE_OIDC_PORT: String(googleOidcPort), FAKE_OIDC_CLIENT_ID: 'e2e-google-client', FAKE_OIDC_CLIENT_SECRET: 'e2e-google-secret' },
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      command: 'npm start',
      cwd: '..',
      url: `http://127.0.0.1:${port}/api/health`,
      // The browser tests run on the embedded database, whatever DATABASE_URL the data tests use.
      env: {
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        DATABASE_URL: '',
        REDIS_URL: '',
        DATA_DIR: join(tmpdir(), `rideway-e2e-${String(port)}-${String(Date.now())}`),
        FACEBOOK_APP_ID: '1000000001',
        FACEBOOK_APP_SECRET: 'e2e-facebook-app-secret',
        FACEBOOK_GRAPH_URL: `http://127.0.0.1:${facebookPort}`,
        FACEBOOK_DIALOG_URL: `http://127.0.0.1:${facebookPort}/dialog/oauth`,
        GOOGLE_CLIENT_ID: 'e2e-google-client',
        GOOGLE_CLIENT_SECRET: 'e2e-google-secret',
        GOOGLE_ISSUER: `http://127.0.0.1:${googleOidcPort}`,
        // The whole suite signs up more people from one address than the 20 an hour a real address
        // may (each spec makes its own); the limit itself is tested by the API tests (rate-limits.test.ts).
        RATE_LIMIT_OVERRIDES: 'signup.address=500/1h, booking.user=500/1h',
      },
      reuseExistingServer: false,
      timeout: 60_000,
    },
    {
      // After the first, so the web app it serves is already built.
      command: 'npm run start -w @rideway/server',
      cwd: '..',
      url: `http://127.0.0.1:${demoPort}/api/health`,
      env: { PORT: String(demoPort), HOST: '127.0.0.1', LOG_LEVEL: 'warn', DATABASE_URL: '', REDIS_URL: '', DATA_DIR: join(tmpdir(), `rideway-e2e-demo-${Date.now()}`) },
      reuseExistingServer: false,
      timeout: 60_000,
    },
  ],
});
