import { expect, test, type Page } from '@playwright/test';
import { CLOCKED_URL, startClockedApp, type ClockedApp } from './clocked-app';
import { captureEverywhere, field, untilLive } from './support';

/**
 * The demo data (`npm run seed`) as a newcomer meets it five months after the spec's meeting of
 * 20 June 2026: an app of its own whose clock stands at that moment (APP_CLOCK), seeded, then the
 * next edition created, opened and made current with the CLI, as the organizers' guide's steps say
 * (docs/organisation.md#die-nächste-ausgabe-schritt-für-schritt). Lena took
 * part with 'Rote Zora' and has a Civic draft she never sent.
 */

const AFTER_THE_MEETING = '2026-11-27T12:00:00+01:00';
const SEED_PASSWORD = 'schlosstreffen';

test.describe.configure({ mode: 'serial' });
test.use({ baseURL: CLOCKED_URL });

let app: ClockedApp;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  app = await startClockedApp(AFTER_THE_MEETING);
  await app.seed();
});

test.afterAll(async () => {
  await app?.stop();
});

async function signIn(page: Page, email: string): Promise<void> {
  const res = await page.request.post('/api/auth/login', {
    data: { email, password: SEED_PASSWORD },
    headers: { Origin: CLOCKED_URL },
  });
  expect(res.status(), await res.text()).toBe(200);
}

/** 'Rückblick 2026': its figures and each car's card as listed. */
async function lookBack(page: Page): Promise<{ figures: string; cars: string[] }> {
  await page.goto('/rueckblick/2026');
  const cars = page.getByRole('list', { name: 'Fahrzeuge 2026' });
  await expect(cars.getByRole('listitem').first()).toBeVisible();
  return {
    figures: (await page.getByRole('main').innerText()).split('Fahrzeuge 2026')[0] ?? '',
    cars: await cars.getByRole('listitem').allInnerTexts(),
  };
}

/** Reloads until `check` holds: the api reads the current edition again every few seconds. */
async function afterReload(page: Page, check: () => Promise<void>): Promise<void> {
  await expect(async () => {
    await page.reload();
    await check();
  }).toPass({ timeout: 20_000 });
}

test("Lena's 2026 stays as it was: taken part, nothing to decline; she applies with the car for 2027 and edits it there", async ({
  page,
}) => {
  test.setTimeout(150_000);
  // React's hydration mismatches (recoverable errors, logged to the console).
  const hydrationErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /hydrat|Minified React error #4(18|19|23|25)/i.test(message.text()))
      hydrationErrors.push(message.text());
  });

  await test.step("the landing page after the meeting: 'Rückblick 2026', no application", async () => {
    await page.goto('/');
    const hero = page.getByRole('region', { name: 'Schlosstreffen' });
    await expect(hero.getByRole('link', { name: 'Rückblick 2026' })).toHaveAttribute(
      'href',
      '/rueckblick/2026',
    );
    await expect(page.getByTestId('countdown-message')).toHaveText(
      'Das Schlosstreffen 2026 ist vorbei – danke an alle!',
    );
    await expect(page.getByRole('link', { name: 'Jetzt Bewerben' })).toHaveCount(0);
    // Hydrated, the page stays as the server wrote it.
    await page.keyboard.press('Tab');
    await untilLive(page);
    await expect(hero.getByRole('link', { name: 'Rückblick 2026' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Jetzt Bewerben' })).toHaveCount(0);
  });

  await signIn(page, 'lena.weber@example.de');

  await test.step("the dashboard shows 2026 as taken part, with 'Ansehen' only", async () => {
    await page.goto('/dashboard');
    const edition = page.getByRole('region', { name: 'Schlosstreffen 2026' });
    const zora = edition.getByRole('article', { name: 'Rote Zora', exact: true });
    await expect(zora.getByTestId('outcome')).toContainText('Dabei beim Schlosstreffen 2026');
    await expect(zora.getByTestId('outcome')).toContainText('Eingecheckt');
    await expect(zora.getByRole('button')).toHaveText(['Ansehen']);
    const civic = edition.getByRole('article', { name: 'Honda Civic Type R (EK9)' });
    await expect(civic.getByTestId('outcome')).toHaveText('Nicht eingereicht');
    await expect(civic).toContainText('Sobald die Bewerbung für das nächste Treffen öffnet');
    await expect(
      page.getByRole('button', { name: /Teilnahme absagen|Zurückziehen|Einreichen|Löschen/ }),
    ).toHaveCount(0);
    await expect(page.getByRole('link', { name: /bearbeiten|Fahrzeug anmelden/ })).toHaveCount(0);

    await zora.getByRole('button', { name: 'Ansehen' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rote Zora' });
    await expect(dialog).toContainText('Schlosstreffen 2026 · Bestätigt · Dabei beim Schlosstreffen 2026');
    await expect(dialog).toContainText('185 PS');
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  });

  const before = await lookBack(page);
  expect(before.cars.join('\n')).toContain('Rote Zora');
  expect(before.cars.find((car) => car.includes('Rote Zora'))).toContain('185 PS');

  await test.step('the next edition is created, opened and made current', async () => {
    expect(await app.cli('edition:create', '2027')).toContain('Schlosstreffen 2027');
    await app.cli('edition:open', '2027');
    await app.cli('edition:current', '2027');
  });

  await test.step("the dashboard offers 'Für Schlosstreffen 2027 bewerben'; Lena takes the car over", async () => {
    await page.goto('/dashboard');
    const zora = page
      .getByRole('region', { name: 'Schlosstreffen 2026' })
      .getByRole('article', { name: 'Rote Zora', exact: true });
    await afterReload(page, () =>
      expect(zora.getByRole('button', { name: 'Für Schlosstreffen 2027 bewerben' })).toBeVisible({
        timeout: 2000,
      }),
    );
    await expect(zora.getByTestId('outcome')).toContainText('Dabei beim Schlosstreffen 2026');
    const civic = page.getByRole('region', { name: 'Schlosstreffen 2026' }).getByRole('article', {
      name: 'Honda Civic Type R (EK9)',
    });
    await expect(civic.getByRole('button')).toHaveText(['Ansehen', 'Für Schlosstreffen 2027 übernehmen']);

    await zora.getByRole('button', { name: 'Für Schlosstreffen 2027 bewerben' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Übernehmen' }).click();
    const draft = page
      .getByRole('region', { name: 'Schlosstreffen 2027' })
      .getByRole('article', { name: 'Rote Zora', exact: true });
    await expect(draft.getByRole('button', { name: 'Einreichen' })).toBeVisible();
    await expect(zora).toContainText('Für Schlosstreffen 2027 bereits angemeldet.');
  });

  await test.step('she renames the 2027 draft and sets 999 PS', async () => {
    await page
      .getByRole('region', { name: 'Schlosstreffen 2027' })
      .getByRole('link', { name: 'Rote Zora bearbeiten' })
      .click();
    await field(page, 'Name auf der Karte').fill('Rote Zora Evo');
    await page.getByRole('button', { name: 'Weiter' }).click();
    await field(page, 'Leistung (PS)').fill('999');
    await page.getByRole('button', { name: 'Weiter' }).click();
    await page.getByRole('button', { name: 'Speichern' }).click();
    await page.waitForURL('**/dashboard');
    const renamed = page
      .getByRole('region', { name: 'Schlosstreffen 2027' })
      .getByRole('article', { name: 'Rote Zora Evo' });
    await expect(renamed).toContainText('999');
    await expect(
      page
        .getByRole('region', { name: 'Schlosstreffen 2026' })
        .getByRole('article', { name: 'Rote Zora', exact: true }),
    ).toContainText('185');
    // The picture without the save's toast.
    await expect(page.getByTestId('toast')).toHaveCount(0, { timeout: 10_000 });
    await captureEverywhere(page, 'dashboard-two-editions');
  });

  await test.step("'Rückblick 2026' is unchanged", async () => {
    expect(await lookBack(page)).toEqual(before);
    await captureEverywhere(page, 'look-back-2026-after-edit');
  });

  await test.step("the landing page of 2027: 'Jetzt Bewerben', and the look back on 2026", async () => {
    await page.goto('/');
    const hero = page.getByRole('region', { name: 'Schlosstreffen' });
    await expect(hero.getByRole('link', { name: 'Jetzt Bewerben' })).toHaveAttribute('href', '/apply');
    await expect(hero.getByRole('link', { name: 'Rückblick 2026' })).toBeVisible();
  });

  expect(hydrationErrors, 'hydration mismatches').toEqual([]);
});
