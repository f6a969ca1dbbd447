import { expect, test } from '@playwright/test';
import { BASE_URL, captureEverywhere, signInAsStaff, untilLive } from './support';

/**
 * 'Texte' in the built app: an admin edits a FAQ answer with its preview; the server-rendered landing
 * page (as curl gets it) and the browser's FAQ accordion show it; 'Standard wiederherstellen' brings
 * the spec's answer back (the other specs read the default FAQ).
 */
test('an admin edits a FAQ answer; the landing page serves it and the accordion shows it', async ({
  page,
  browser,
  playwright,
}) => {
  const question = 'Welche Fotos und Daten brauche ich für die Bewerbung?';
  const marker = `Innenraum-${Date.now()}`;
  const answer = `Mindestens drei Fotos, **neu: eines vom ${marker}**.\n\n- Leistung in PS\n- [Datenschutz](/datenschutz)`;
  await signInAsStaff(page, 'admin', 'Tina');

  try {
    await page.goto('/admin/texte');
    await expect(page.getByRole('heading', { level: 1, name: 'Texte' })).toBeVisible();
    await expect(
      page.getByRole('navigation', { name: 'Adminbereich' }).getByRole('link', { name: 'Texte' }),
    ).toHaveAttribute('aria-current', 'page');
    const entry = page.getByRole('group', { name: 'Frage 3', exact: true });
    await expect(entry.getByRole('textbox', { name: 'Frage', exact: true })).toHaveValue(question);
    await entry.getByRole('textbox', { name: 'Antwort' }).fill(answer);

    // The preview shows the answer formatted, before anything is saved.
    const preview = page.getByRole('region', { name: 'Vorschau: FAQ' });
    await preview.getByRole('heading', { level: 3, name: question }).click();
    await expect(preview.getByText(`neu: eines vom ${marker}`)).toBeVisible();
    await expect(page.getByText('Ungespeicherte Änderungen: FAQ.')).toBeVisible();
    await captureEverywhere(page, 'admin-texts');

    await page.getByRole('button', { name: 'Speichern' }).click();
    await expect(page.getByText('Die Texte der Startseite wurden gespeichert.')).toBeVisible();
    await expect(page.getByText('Alle Änderungen sind gespeichert.')).toBeVisible();
    await expect(page.getByRole('region', { name: 'FAQ', exact: true }).getByText('Angepasst')).toBeVisible();

    // '/' as the server sends it to anyone (curl): the answer is in the HTML, formatted and escaped.
    const anonymous = await playwright.request.newContext({ baseURL: BASE_URL });
    const served = await (await anonymous.get('/')).text();
    expect(served).toContain(question);
    expect(served).toContain(
      `<p>Mindestens drei Fotos, <strong>neu: eines vom ${marker}</strong>.</p><ul><li>Leistung in PS</li><li><a href="/datenschutz">Datenschutz</a></li></ul>`,
    );
    expect(served).not.toContain('Du brauchst mindestens drei hochwertige Fotos');
    await anonymous.dispose();

    // In the browser: the FAQ accordion opens to the new answer, with its link.
    const visitor = await browser.newContext({ baseURL: BASE_URL });
    const landing = await visitor.newPage();
    await landing.goto('/');
    const faq = landing.locator('#faq');
    await expect(faq).toContainText(question);
    // The page loads its app when the visitor reaches for it; the accordion opens once it is live.
    await landing.keyboard.press('Shift');
    await untilLive(landing);
    await faq.scrollIntoViewIfNeeded();
    await faq.getByRole('button', { name: question }).click();
    await expect(faq.getByText(`neu: eines vom ${marker}`)).toBeVisible();
    await expect(faq.getByRole('link', { name: 'Datenschutz' })).toHaveAttribute('href', '/datenschutz');
    await captureEverywhere(landing, 'landing-edited-faq', async () => {
      await faq.scrollIntoViewIfNeeded();
    });
    await visitor.close();

    // Back to the spec's FAQ.
    await page.getByRole('button', { name: 'Standard wiederherstellen: FAQ' }).click();
    await expect(page.getByText('FAQ: Es gilt wieder der Standardtext.')).toBeVisible();
    await expect(entry.getByRole('textbox', { name: 'Antwort' })).toHaveValue(
      /^Du brauchst mindestens drei hochwertige Fotos/,
    );
    expect(await (await page.request.get('/')).text()).toContain(
      'Du brauchst mindestens drei hochwertige Fotos',
    );
  } finally {
    // Whatever happened above, the other specs find the default FAQ.
    const reset = await page.request.put('/api/admin/texts', {
      headers: { Origin: BASE_URL },
      data: { faq: null },
    });
    expect(reset.status()).toBe(200);
  }
});
