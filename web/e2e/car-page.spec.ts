import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type APIRequestContext } from '@playwright/test';
import sharp from 'sharp';
import {
  adminVehicle,
  attachPhoto,
  BASE_URL,
  captureEverywhere,
  makeJpeg,
  registerViaApi,
  SCREENSHOT_DIR,
  setVehicleStatus,
  signInAsStaff,
  SUBMISSION_CONSENTS,
  uniqueEmail,
} from './support';

/**
 * A car's public page in the built app: rendered by the server with its link preview's tags, so a
 * link posted anywhere shows the car; its preview image is 1200×630; kept for every visitor who is not
 * signed in (ETag, 304); a start number no confirmed car holds is not found; a car shown without its
 * owner's media consent gives its number, brand and model only.
 */

interface CarPageData {
  edition: { year: number };
  startNumber: number;
  vehicle: { hero: unknown } | null;
  shareImageUrl: string | null;
}

/** A confirmed car with a photo, its number issued by the worker; its page's path and data. */
async function confirmedCar(request: APIRequestContext, ownerRequest: APIRequestContext) {
  // The owner registered with an Instagram name; the page shows it only once they allow it.
  const email = uniqueEmail('berta');
  await registerViaApi(ownerRequest, {
    email,
    firstName: 'Karla',
    lastName: 'Seidel',
    instagramHandle: 'berta.alpine',
  } as Parameters<typeof registerViaApi>[1]);
  const created = await ownerRequest.post('/api/vehicles', {
    headers: { Origin: BASE_URL },
    data: {
      brand: 'Alpine',
      model: 'A110 1600 S',
      name: 'Blaue Berta',
      year: 1973,
      color: 'Blau',
      ps: 138,
      weightKg: 710,
      topSpeedKmh: 210,
      zeroToHundredS: 7.4,
      descriptionShort: 'Leicht, laut und blau.',
      descriptionLong: 'Seit 1985 in der Familie, zweimal restauriert.',
      status: 'submitted',
      ...SUBMISSION_CONSENTS,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const vehicleId = ((await created.json()) as { id: string }).id;
  await attachPhoto(
    ownerRequest,
    vehicleId,
    await makeJpeg(path.join(os.tmpdir(), 'car-page-e2e'), 'berta.jpg', 7),
  );
  await setVehicleStatus(request, vehicleId, { status: 'invited', oldStatus: 'submitted' });
  await expect
    .poll(async () => (await adminVehicle(request, vehicleId)).invitation?.startNumber, { timeout: 30_000 })
    .toBeGreaterThan(0);
  await setVehicleStatus(request, vehicleId, { status: 'confirmed', oldStatus: 'invited' });
  const vehicle = (await adminVehicle(request, vehicleId)) as unknown as {
    invitation: { startNumber: number };
    edition: { year: number };
  };
  const pagePath = `/fahrzeuge/${vehicle.edition.year}/${vehicle.invitation.startNumber}`;
  const api = `/api/editions/${vehicle.edition.year}/vehicles/${vehicle.invitation.startNumber}`;
  // The photo is cleaned, then the worker draws the preview from it.
  await expect
    .poll(
      async () => {
        const data = (await (await request.get(api)).json()) as CarPageData;
        return Boolean(data.vehicle?.hero && data.shareImageUrl);
      },
      { timeout: 60_000 },
    )
    .toBe(true);
  return { vehicleId, pagePath, api };
}

test("a confirmed car's page: server-rendered with its preview, kept, and without consent only its number", async ({
  page,
  browser,
  playwright,
}) => {
  const ownerContext = await browser.newContext({ baseURL: BASE_URL });
  await signInAsStaff(page, 'admin', 'Arne');
  const { vehicleId, pagePath, api } = await confirmedCar(page.request, ownerContext.request);

  // Fetched without a browser, as a link preview's crawler does.
  const anonymous = await playwright.request.newContext({ baseURL: BASE_URL });
  const res = await anonymous.get(`${pagePath}?utm_source=instagram`);
  expect(res.status()).toBe(200);
  const html = await res.text();
  const meta = (key: string) =>
    new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)"`).exec(html)?.[1] ?? null;
  expect(meta('og:title')).toContain('Blaue Berta');
  expect(meta('og:url')).toBe(`${BASE_URL}${pagePath}`);
  expect(meta('og:type')).toBe('website');
  expect(meta('og:image:width')).toBe('1200');
  expect(meta('og:image:height')).toBe('630');
  expect(meta('twitter:card')).toBe('summary_large_image');
  const image = meta('og:image')!;
  expect(image).toMatch(new RegExp(`^${BASE_URL}/objects/share/${vehicleId}/[0-9a-f]+\\.jpg$`));
  expect(meta('twitter:image')).toBe(image);
  const root = /<div id="root">([\s\S]*)<\/div>\s*<\/body>/.exec(html)?.[1] ?? '';
  expect(root).toContain('Blaue Berta');
  expect(root).toContain('Technische Daten');
  // No owner data.
  expect(html).not.toContain('Seidel');

  // The preview answers anyone, as a 1200×630 picture.
  const picture = await anonymous.get(image);
  expect(picture.status()).toBe(200);
  expect(picture.headers()['content-type']).toBe('image/jpeg');
  const bytes = await picture.body();
  expect(await sharp(bytes).metadata()).toMatchObject({ width: 1200, height: 630, format: 'jpeg' });
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  await writeFile(path.join(SCREENSHOT_DIR, 'car-page-preview.jpg'), bytes);

  // Kept for every visitor: a second visit is answered from memory, the browser's copy with a 304.
  const etag = res.headers()['etag']!;
  expect(etag).toBeTruthy();
  const again = await anonymous.get(pagePath, { headers: { 'If-None-Match': etag } });
  expect(again.status()).toBe(304);

  // A number no confirmed car holds: not found, with the not-found page.
  const missing = await anonymous.get(pagePath.replace(/\/\d+$/, '/9999'));
  expect(missing.status()).toBe(404);

  // In the browser: the page as everyone sees it, at phone and desktop size.
  const visitorContext = await browser.newContext({ baseURL: BASE_URL });
  const visitor = await visitorContext.newPage();
  await visitor.goto(pagePath);
  await expect(visitor.getByRole('heading', { name: 'Blaue Berta', level: 1 })).toBeVisible();
  await expect(visitor.getByText('Startnummer')).toBeVisible();

  // No Instagram name until the owner allows it on the dashboard; then the page shows it.
  expect(root).not.toContain('berta.alpine');
  const ownerPage = await ownerContext.newPage();
  await ownerPage.goto('/dashboard');
  const card = ownerPage.getByRole('article', { name: 'Blaue Berta' });
  await expect(card.getByRole('link', { name: /Fahrzeugseite ansehen/ })).toHaveAttribute('href', pagePath);
  const allow = card.getByRole('checkbox', { name: 'Instagram-Namen auf der Fahrzeugseite zeigen' });
  await expect(allow).not.toBeChecked();
  await card.getByText('Instagram-Namen auf der Fahrzeugseite zeigen').click();
  await expect(allow).toBeChecked();
  await captureEverywhere(ownerPage, 'dashboard-car-page-panel');
  await expect
    .poll(async () => (await (await anonymous.get(pagePath)).text()).includes('@berta.alpine'), {
      timeout: 15_000,
    })
    .toBe(true);
  await visitor.goto(pagePath);
  await expect(visitor.getByRole('link', { name: '@berta.alpine' })).toBeVisible();
  await expect(visitor.getByText('Seit 1985 in der Familie')).toBeVisible();
  await captureEverywhere(visitor, 'car-page');

  // The owner withdraws the consent to show the car: its page keeps its number, brand and model only.
  const consents = (await (await ownerContext.request.get(`/api/vehicles/${vehicleId}/consents`)).json()) as {
    id: string;
    kind: string;
    withdrawnAt: string | null;
  }[];
  const media = consents.find((consent) => consent.kind === 'media' && !consent.withdrawnAt)!;
  const withdrawn = await ownerContext.request.post(`/api/account/consents/${media.id}/withdraw`, {
    headers: { Origin: BASE_URL },
    data: {},
  });
  expect(withdrawn.status()).toBe(200);
  expect(((await (await anonymous.get(api)).json()) as CarPageData).vehicle).toBeNull();
  await expect.poll(async () => (await anonymous.get(image)).status(), { timeout: 15_000 }).toBe(404);
  await expect
    .poll(async () => (await (await anonymous.get(pagePath)).text()).includes('Blaue Berta'), {
      timeout: 15_000,
    })
    .toBe(false);
  await visitor.goto(pagePath);
  await expect(visitor.getByRole('heading', { name: 'Alpine A110 1600 S', level: 1 })).toBeVisible();
  await expect(visitor.getByText('Technische Daten')).toHaveCount(0);
  await captureEverywhere(visitor, 'car-page-without-consent');
  await visitorContext.close();
  await ownerContext.close();
  await anonymous.dispose();
});
