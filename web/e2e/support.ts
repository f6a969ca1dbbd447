import AxeBuilder from '@axe-core/playwright';
import { expect, type APIRequestContext, type Download, type Locator, type Page } from '@playwright/test';
import { execFile } from 'node:child_process';
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Secret, TOTP } from 'otpauth';
import pg from 'pg';
import sharp from 'sharp';

const run = promisify(execFile);

export const BASE_URL = 'http://localhost:3100';
const MAIL_API = 'http://127.0.0.1:1180';
export const PASSWORD = 'sicheresPasswort1';
/** Makes the app's mail server refuse `address` for good from now on (550; see start-app.mjs). */
export async function refuseMailTo(address: string): Promise<void> {
  const list = path.resolve(
    path.dirname(fileURLToPath(import.meta.url)),
    '../../.data/e2e/smtp-refused-addresses',
  );
  await appendFile(list, `${address.toLowerCase()}\n`);
}

export const SCREENSHOT_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../test-results/screenshots',
);

export const VIEWPORTS = {
  phone: { width: 390, height: 844 },
  desktop: { width: 1440, height: 900 },
} as const;

let counter = 0;
/** A unique address per call, so tests never collide with earlier runs' accounts. */
export function uniqueEmail(name: string): string {
  counter += 1;
  return `${name}.${Date.now().toString(36)}${counter}@example.de`;
}

/**
 * Registers and signs in through the API; the page's context shares the session cookie. The address
 * is confirmed by the link of its confirmation mail unless `confirm` is false.
 */
export async function registerViaApi(
  request: APIRequestContext,
  user: { email: string; firstName: string; lastName: string; password?: string },
  { confirm = true }: { confirm?: boolean } = {},
): Promise<void> {
  const res = await request.post('/api/auth/register', {
    data: { password: PASSWORD, ...user },
    headers: { Origin: BASE_URL },
  });
  expect(res.status(), await res.text()).toBe(201);
  if (confirm) await confirmViaMail(request, user.email);
}

/** The link of the account's confirmation mail, from the embedded mail catcher. */
export async function confirmationLink(email: string): Promise<string> {
  const mail = await waitForMail(email, /^Bestätige deine E-Mail-Adresse/);
  return linkIn(mail, `${BASE_URL}/email-bestaetigen?token=`);
}

/** Confirms the address with the token of its confirmation mail, as the page's button does. */
export async function confirmViaMail(request: APIRequestContext, email: string): Promise<void> {
  const token = new URL(await confirmationLink(email)).searchParams.get('token');
  const res = await request.post('/api/auth/confirm-email', {
    data: { token },
    headers: { Origin: BASE_URL },
  });
  expect(res.status(), await res.text()).toBe(200);
}

/** Axe on the current page: no serious or critical violations. */
export async function expectAccessible(page: Page, label: string): Promise<void> {
  const result = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    // A sandboxed frame (the mail preview) runs no scripts, so axe cannot run inside it.
    .exclude('iframe[sandbox]')
    .analyze();
  const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const summary = bad.map(
    (v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
  expect(summary, `axe on ${label}`).toEqual([]);
}

/**
 * Shows the page at phone and desktop size: axe at each, a full-page screenshot saved as
 * test-results/screenshots/<name>-<viewport>.png. Ends at the desktop size.
 */
export async function captureEverywhere(
  page: Page,
  name: string,
  ready?: () => Promise<void>,
): Promise<void> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  for (const [viewport, size] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(size);
    await ready?.();
    // Let entrance animations settle before checking contrast and taking the picture.
    await page.waitForTimeout(700);
    // Sections off screen are skipped by content-visibility until scrolled near; axe and the
    // full-page picture should see all of them.
    await setOffscreenRendering(page, 'visible');
    await expectAccessible(page, `${name} (${viewport})`);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-${viewport}.png`), fullPage: true });
    await setOffscreenRendering(page, '');
  }
}

/** Sets (or with '' restores) content-visibility on every element the page renders only when near. */
async function setOffscreenRendering(page: Page, value: 'visible' | ''): Promise<void> {
  await page.evaluate((visibility) => {
    for (const element of document.querySelectorAll<HTMLElement>('body *')) {
      if (visibility ? getComputedStyle(element).contentVisibility === 'auto' : element.dataset.e2eSkipped) {
        element.style.contentVisibility = visibility;
        if (visibility) element.dataset.e2eSkipped = '1';
        else delete element.dataset.e2eSkipped;
      }
    }
  }, value);
}

export interface CaughtMail {
  id: string;
  subject: string;
  text: string;
  html: string;
  to: { address: string }[];
}

/** Waits for the newest mail to `to` whose subject matches, from the embedded catcher's REST API. */
export async function waitForMail(to: string, subject: RegExp, timeoutMs = 20_000): Promise<CaughtMail> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const res = await fetch(`${MAIL_API}/email`);
    const mails = (await res.json()) as CaughtMail[];
    const match = mails
      .filter(
        (m) => m.to.some((r) => r.address.toLowerCase() === to.toLowerCase()) && subject.test(m.subject),
      )
      .at(-1);
    if (match) return match;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`no mail to ${to} matching ${subject} within ${timeoutMs} ms`);
}

/** The first link in a mail's text that starts with `prefix`, moved onto the test server's origin. */
export function linkIn(mail: CaughtMail, prefix: string): string {
  const match = new RegExp(`${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[^\\s"<>)]*`).exec(mail.text);
  if (!match) throw new Error(`no link ${prefix}… in mail "${mail.subject}"`);
  return match[0];
}

/** Real JPEG photos (a sky-to-road gradient with noise and a car-like shape), different per seed. */
export async function makeJpeg(dir: string, name: string, seed: number): Promise<string> {
  await mkdir(dir, { recursive: true });
  const width = 1600;
  const height = 1000;
  const hue = (seed * 67) % 360;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="hsl(${hue},60%,70%)"/><stop offset="0.6" stop-color="hsl(${hue},30%,35%)"/>
      <stop offset="1" stop-color="#222"/></linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/>
    <rect x="380" y="520" width="840" height="220" rx="60" fill="hsl(${(hue + 180) % 360},70%,45%)"/>
    <rect x="520" y="430" width="520" height="140" rx="50" fill="hsl(${(hue + 180) % 360},60%,35%)"/>
    <circle cx="560" cy="750" r="80" fill="#111"/><circle cx="1040" cy="750" r="80" fill="#111"/>
  </svg>`;
  const file = path.join(dir, name);
  await sharp(Buffer.from(svg)).jpeg({ quality: 88 }).toFile(file);
  return file;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A form field by its label, whether marked required (' *') or optional (' (optional)'). */
export function field(page: Page, label: string) {
  return page.getByLabel(new RegExp(`^${escapeRegExp(label)}( \\*| \\(optional\\))?$`));
}

/** The browser tests' own database (see start-app.mjs). */
export const E2E_DATABASE_URL = (() => {
  const url = new URL(process.env.E2E_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  url.pathname = '/schlosstreffen_e2e';
  return url.href;
})();

/** A query on the browser tests' database, as the api sees it. */
export async function sql<T extends pg.QueryResultRow>(text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: E2E_DATABASE_URL });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

/** Gives an account a role with the CLI an operator would use (`npm run cli -- user:set-role`). */
export async function setRole(email: string, role: 'admin' | 'reviewer' | 'user'): Promise<void> {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  const { stdout } = await run(process.execPath, ['api/dist/cli/cli.js', 'user:set-role', email, role], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: E2E_DATABASE_URL },
  });
  expect(stdout).toContain(role);
}

/** The current code of a second-factor key (as shown, in groups), as an authenticator app computes it. */
export function totpCode(key: string, at: number = Date.now()): string {
  return TOTP.generate({ secret: Secret.fromBase32(key.replace(/\s/g, '')), timestamp: at });
}

/**
 * Completes a staff sign-in that waits for its second factor's setup (the app runs with
 * STAFF_SECOND_FACTOR on): takes the key the setup screen would show and answers with its code.
 */
export async function setUpSecondFactor(
  request: APIRequestContext,
): Promise<{ key: string; recoveryCodes: string[] }> {
  const setup = await request.get('/api/auth/second-factor/setup');
  expect(setup.status(), await setup.text()).toBe(200);
  const { key } = (await setup.json()) as { key: string };
  const done = await request.post('/api/auth/second-factor/setup', {
    headers: { Origin: BASE_URL },
    data: { code: totpCode(key) },
  });
  expect(done.status(), await done.text()).toBe(200);
  return { key, recoveryCodes: ((await done.json()) as { recoveryCodes: string[] }).recoveryCodes };
}

/** A staff account (admin or reviewer) signed in on `page`, second factor included; returns its address. */
export async function signInAsStaff(
  page: Page,
  role: 'admin' | 'reviewer',
  firstName: string,
): Promise<string> {
  const email = uniqueEmail(role);
  await registerViaApi(page.request, { email, firstName, lastName: 'Team' });
  await setRole(email, role);
  // A changed role ends the account's sessions: sign in again.
  const login = await page.request.post('/api/auth/login', {
    headers: { Origin: BASE_URL },
    data: { email, password: PASSWORD },
  });
  expect(login.status()).toBe(200);
  // The first sign-in after the role was given sets the second factor up.
  if (((await login.json()) as { secondFactor?: string }).secondFactor === 'setup') {
    await setUpSecondFactor(page.request);
  }
  return email;
}

/** The three application consents as the wizard and the dashboard send them with a submission. */
export const SUBMISSION_CONSENTS = {
  consentMedia: true,
  consentQuartett: true,
  consentContact: true,
} as const;

/**
 * Submits the draft of `card` from the dashboard: 'Einreichen', the three consents ticked in the
 * dialog ('Bewerbung einreichen?'), then its 'Einreichen'.
 */
export async function submitFromDashboard(page: Page, card: Locator): Promise<void> {
  await card.getByRole('button', { name: 'Einreichen' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Bewerbung einreichen?' });
  await expect(dialog).toBeVisible();
  // Each box as a person ticks it: on its label (Ark's input is visually hidden).
  for (const consent of ['Bilder meines Fahrzeugs', 'im Auto-Quartett', 'kontaktieren darf']) {
    await dialog.getByText(consent).click();
  }
  for (const box of await dialog.getByRole('checkbox').all()) await expect(box).toBeChecked();
  await dialog.getByRole('button', { name: 'Einreichen' }).click();
}

/** A status change by staff, as the admin dialog sends it. */
export async function setVehicleStatus(
  request: APIRequestContext,
  vehicleId: string,
  change: { status: string; oldStatus: string; score?: number },
): Promise<void> {
  const res = await request.patch(`/api/admin/vehicles/${vehicleId}/status`, {
    headers: { Origin: BASE_URL },
    data: change,
  });
  expect(res.status(), await res.text()).toBe(200);
}

export interface AdminVehicle {
  id: string;
  status: string;
  invitation: {
    startNumber: number;
    parkingZone: string;
    releaseReason: string | null;
    checkedIn: boolean;
    checkedInAt: string | null;
  } | null;
}

/** A vehicle with its invitation as staff read it (staff session in `request`). */
export async function adminVehicle(request: APIRequestContext, id: string): Promise<AdminVehicle> {
  const res = await request.get(`/api/vehicles/${id}`);
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as AdminVehicle;
}

/** An applicant with one vehicle, created through the API in a context of its own. */
export async function applicantWithVehicle(
  request: APIRequestContext,
  vehicle: { brand: string; model: string; name?: string },
): Promise<{ email: string; vehicleId: string }> {
  const email = uniqueEmail('bewerber');
  await registerViaApi(request, { email, firstName: 'Karla', lastName: 'Seidel' });
  const created = await request.post('/api/vehicles', {
    headers: { Origin: BASE_URL },
    data: {
      ...vehicle,
      year: 1994,
      color: 'Violett',
      ps: 210,
      weightKg: 1150,
      topSpeedKmh: 235,
      zeroToHundredS: 6.4,
      status: 'submitted',
      ...SUBMISSION_CONSENTS,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  return { email, vehicleId: ((await created.json()) as { id: string }).id };
}

/** The bytes of a caught mail's first attachment (the invitation's QR code). */
export async function mailAttachment(mail: CaughtMail & { attachments?: { generatedFileName: string }[] }) {
  const name = mail.attachments?.[0]?.generatedFileName;
  if (!name) throw new Error(`mail "${mail.subject}" has no attachment`);
  const res = await fetch(`${MAIL_API}/email/${mail.id}/attachment/${encodeURIComponent(name)}`);
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

/** Uploads a JPEG the way the browser does (signed PUT straight to S3) and attaches it to a vehicle. */
export async function attachPhoto(
  request: APIRequestContext,
  vehicleId: string,
  file: string,
): Promise<void> {
  const body = await readFile(file);
  const signed = await request.post('/api/objects/upload', {
    headers: { Origin: BASE_URL },
    data: { filename: path.basename(file), type: 'image/jpeg', size: body.length },
  });
  expect(signed.status(), await signed.text()).toBe(200);
  const { uploadURL, objectPath } = (await signed.json()) as { uploadURL: string; objectPath: string };
  const put = await fetch(uploadURL, { method: 'PUT', body, headers: { 'content-type': 'image/jpeg' } });
  expect(put.status).toBe(200);
  const attached = await request.post(`/api/vehicles/${vehicleId}/media`, {
    headers: { Origin: BASE_URL },
    data: { type: 'image', url: objectPath, isHero: true },
  });
  expect(attached.status(), await attached.text()).toBe(201);
}

/**
 * Waits until a server-rendered page's content is live (the app hydrated it and took over what was
 * done before): filling a form while hydration runs could reach a field the app does not know yet.
 */
export async function untilLive(page: Page): Promise<void> {
  await page.locator('#root[data-live]').waitFor({ state: 'attached' });
}

/** A download's bytes. */
export async function readDownload(download: Download): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The text of a PDF, page after page, as pdfjs reads it. */
export async function pdfText(pdf: Buffer): Promise<string> {
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const document = await getDocument({ data: new Uint8Array(pdf), useSystemFonts: false }).promise;
  const pages: string[] = [];
  for (let number = 1; number <= document.numPages; number++) {
    const content = await (await document.getPage(number)).getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
  }
  await document.destroy();
  return pages.join('\n');
}

/**
 * The QR codes of a PDF, one per page as it would be scanned: each page drawn to pixels by pdfjs (on
 * its Node canvas) at three pixels per point, then read by jsQR.
 */
export async function pdfQrCodes(pdf: Buffer): Promise<Array<string | null>> {
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const jsqrModule = await import('jsqr');
  const jsQR = ((jsqrModule as { default?: unknown }).default ?? jsqrModule) as typeof jsqrModule.default;
  type CanvasFactory = {
    create(
      width: number,
      height: number,
    ): {
      canvas: unknown;
      context: { getImageData(x: number, y: number, w: number, h: number): ImageData };
    };
  };
  const document = await getDocument({ data: new Uint8Array(pdf), isEvalSupported: false }).promise;
  const codes: Array<string | null> = [];
  for (let number = 1; number <= document.numPages; number++) {
    const page = await document.getPage(number);
    const viewport = page.getViewport({ scale: 3 });
    const { canvas, context } = (
      document as unknown as { canvasFactory: CanvasFactory }
    ).canvasFactory.create(viewport.width, viewport.height);
    await page.render({ canvas, canvasContext: context, viewport } as never).promise;
    const image = context.getImageData(0, 0, viewport.width, viewport.height);
    codes.push(jsQR(image.data, image.width, image.height)?.data ?? null);
  }
  await document.destroy();
  return codes;
}

/** The Admin tab of the admin dialog of the car titled `title`, found on the dashboard by `query`. */
export async function adminDialogOf(page: Page, query: string, title: string) {
  await page.goto(`/admin/dashboard?q=${encodeURIComponent(query)}`);
  await page.getByRole('article').filter({ hasText: title }).getByRole('button', { name: title }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('tab', { name: 'Admin' }).click();
  return dialog;
}
