import { defineConfig, devices } from '@playwright/test';

/**
 * Browser tests: Debian's Chromium (never a downloaded browser) against the app as `npm start` builds
 * it, with its own database, Redis database, storage directory and ports, so a running dev instance
 * is not disturbed. `e2e/start-app.mjs` prepares and starts it.
 */
export const E2E_PORT = 3100;
export const E2E_MAIL_WEB_PORT = 1180;

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Debian's Chromium is the full browser, headless: every context's page opens a window of its own,
 * and since Chromium 15x each window loads its address bar's suggestion popups as two WebUI pages
 * (chrome://omnibox-popup.top-chrome, the plain and the 'AI mode' one) in a renderer of their own:
 * 1.3–2 s of CPU per new page that nothing here shows (a fresh page took 5.3 instead of 3.5 CPU
 * seconds). Chromium reads only the last --disable-features, so Playwright's own list
 * (playwright-core 1.65, chromiumSwitches.ts) is repeated before them; browser.spec.ts checks that
 * it still covers Playwright's and that a new page opens no such WebUI page.
 */
export const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];
const disabledFeatures = [...PLAYWRIGHT_DISABLED_FEATURES, 'WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

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
    launchOptions: {
      executablePath: chromium,
      args: ['--disable-dev-shm-usage', `--disable-features=${disabledFeatures.join(',')}`],
    },
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
