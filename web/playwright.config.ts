import { defineConfig, devices } from '@playwright/test';

/**
 * Browser tests: Debian's Chromium (never a downloaded browser) against the app as `npm start` builds
 * it, with its own database, Redis database, storage directory and ports, so a running dev instance
 * is not disturbed. `e2e/start-app.mjs` prepares and starts it.
 */
export const E2E_PORT = 3100;
export const E2E_MAIL_WEB_PORT = 1180;

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export default defineConfig({
  testDir: './e2e',
  outputDir: '../test-results/e2e',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 90_000,
  expect: { timeout: 15_000 },
  reporter: [['list']],
  use: {
    baseURL: `http://localhost:${E2E_PORT}`,
    locale: 'de-DE',
    timezoneId: 'Europe/Berlin',
    trace: 'retain-on-failure',
    launchOptions: { executablePath: chromium, args: ['--disable-dev-shm-usage'] },
  },
  projects: [
    { name: 'desktop', use: { ...devices['Desktop Chrome'], viewport: { width: 1440, height: 900 } } },
  ],
  webServer: {
    command: 'node e2e/start-app.mjs',
    url: `http://localhost:${E2E_PORT}/readyz`,
    timeout: 300_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    stderr: 'pipe',
  },
});
