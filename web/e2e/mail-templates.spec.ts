import { expect, test } from '@playwright/test';
import {
  adminDialogOf,
  applicantWithVehicle,
  BASE_URL,
  captureEverywhere,
  setVehicleStatus,
  signInAsStaff,
  waitForMail,
} from './support';

/**
 * 'E-Mail-Vorlagen' in the built app: an admin edits the rejection mail with placeholders, sees it
 * filled with an application's data in the preview, sends it to themselves, saves it; the next
 * rejection mail carries it with the owner's values, and the admin dialog names the version. An
 * invitation without its confirm link cannot be saved. The default text comes back at the end (the
 * other specs read it).
 */
test('an admin edits the rejection mail; the next rejection carries it, filled in, and names its version', async ({
  page,
  browser,
}) => {
  const run = Date.now().toString(36);
  const model = `Corrado ${run}`;
  const adminEmail = await signInAsStaff(page, 'admin', 'Vera');
  const applicants = await browser.newContext({ baseURL: BASE_URL });
  const owner = await applicantWithVehicle(applicants.request, { brand: 'VW', model });
  await applicants.close();

  await page.goto('/admin/mail-vorlagen?mail=application-rejected');
  await expect(page.getByRole('heading', { level: 1, name: 'E-Mail-Vorlagen' })).toBeVisible();
  await expect(
    page.getByRole('navigation', { name: 'Adminbereich' }).getByRole('link', { name: 'E-Mail-Vorlagen' }),
  ).toHaveAttribute('aria-current', 'page');
  const form = page.getByRole('form', { name: 'Vorlage: Absage' });
  await expect(form.getByRole('heading', { level: 2, name: 'Absage' })).toBeVisible();
  await expect(form.getByText('Standardtext', { exact: true })).toBeVisible();

  // The invitation cannot lose its confirm link.
  await page
    .getByRole('navigation', { name: 'E-Mails' })
    .getByRole('button', { name: /^Einladung/ })
    .first()
    .click();
  const invitation = page.getByRole('form', { name: 'Vorlage: Einladung' });
  const invitationText = invitation.getByRole('textbox', { name: 'Text' });
  await invitationText.fill(
    (await invitationText.inputValue()).replace('[Teilnahme bestätigen]({link})', ''),
  );
  await expect(invitation.getByRole('alert')).toContainText(
    'Der Platzhalter {link} fehlt (Link zum Bestätigen der Teilnahme). Ohne ihn erfüllt diese E-Mail ihren Zweck nicht.',
  );
  await expect(invitation.getByRole('button', { name: 'Testmail an mich' })).toBeDisabled();
  await invitation.getByRole('button', { name: 'Speichern' }).click();
  await expect(invitation.getByText('Ungespeicherte Änderungen.')).toBeVisible();
  await expect(invitation.getByText('Standardtext', { exact: true })).toBeVisible();
  // And the server refuses it too, in German.
  const refused = await page.request.put('/api/admin/mail-templates/invitation', {
    headers: { Origin: BASE_URL },
    data: { subject: 'Einladung', body: 'Hallo {vorname}, du bist dabei.', baseVersion: 0 },
  });
  expect([refused.status(), ((await refused.json()) as { message: string }).message]).toEqual([
    400,
    'Der Platzhalter {link} fehlt (Link zum Bestätigen der Teilnahme). Ohne ihn erfüllt diese E-Mail ihren Zweck nicht.',
  ]);

  page.once('dialog', (dialog) => void dialog.accept());
  await page
    .getByRole('navigation', { name: 'E-Mails' })
    .getByRole('button', { name: /^Absage/ })
    .first()
    .click();
  await expect(form).toBeVisible();

  await form.getByRole('textbox', { name: 'Betreff' }).fill('Absage für {fahrzeug} ({ausgabe})');
  await form
    .getByRole('textbox', { name: 'Text' })
    .fill(
      'Hallo {vorname},\n\ndiesmal hat es für **{fahrzeug}** nicht gereicht. Komm gern als Besucher am {datum}.\n\n[Zum Dashboard]({dashboard_link})',
    );
  // An unknown placeholder is named at once.
  await form.getByRole('textbox', { name: 'Betreff' }).fill('Absage für {auto}');
  await expect(form.getByRole('alert')).toContainText(
    'Den Platzhalter {auto} gibt es in dieser E-Mail nicht.',
  );
  await form.getByRole('textbox', { name: 'Betreff' }).fill('Absage für {fahrzeug} ({ausgabe})');
  await expect(form.getByRole('alert')).toHaveCount(0);

  // The preview with the application's data.
  const preview = form.getByRole('region', { name: 'Vorschau' });
  await expect(preview.getByTestId('vorschau-betreff')).toHaveText(/^Absage für BMW M3 E46 \(\d{4}\)$/);
  await preview.getByRole('combobox', { name: 'Mit den Daten von' }).click();
  await page.getByRole('option', { name: `VW ${model}` }).click();
  await expect(preview.getByTestId('vorschau-betreff')).toHaveText(
    new RegExp(`^Absage für VW ${model} \\(\\d{4}\\)$`),
  );
  await expect(preview.getByText('Hallo Karla,')).toBeVisible();
  await expect(preview.locator('strong', { hasText: `VW ${model}` })).toBeVisible();
  await captureEverywhere(page, 'admin-mail-templates');

  // 'Testmail an mich': the draft, filled in, to the admin's own address.
  await form.getByRole('button', { name: 'Testmail an mich' }).click();
  await expect(page.getByText(`Die Testmail an ${adminEmail} ist unterwegs.`)).toBeVisible();
  const testMail = await waitForMail(adminEmail, /^\[Test\] Absage für VW /);
  expect(testMail.text).toContain('Hallo Karla,');

  await form.getByRole('button', { name: 'Speichern' }).click();
  await expect(page.getByText('Absage: Version 1 gilt ab der nächsten E-Mail.')).toBeVisible();
  const saved = page.getByRole('form', { name: 'Vorlage: Absage' });
  await expect(saved.getByText('Version 1', { exact: true }).first()).toBeVisible();
  await expect(saved.getByRole('region', { name: 'Versionen' }).getByRole('listitem')).toHaveText(
    /^Version 1 · .* · Vera .*„Absage für \{fahrzeug\} \(\{ausgabe\}\)“$/,
  );

  try {
    // The next rejection mail carries the text with the owner's values.
    await setVehicleStatus(page.request, owner.vehicleId, { status: 'rejected', oldStatus: 'submitted' });
    const mail = await waitForMail(owner.email, /^Absage für VW /);
    expect(mail.subject).toMatch(new RegExp(`^Absage für VW ${model} \\(\\d{4}\\)$`));
    expect(mail.text).toContain('Hallo Karla,');
    expect(mail.html).toContain(`<strong>VW ${model}</strong>`);
    expect(mail.text).not.toMatch(/\{[a-z_]+\}/);

    // The admin dialog's mails name the version the mail was written with.
    const dialog = await adminDialogOf(page, run, `VW ${model}`);
    const rejection = dialog.getByRole('listitem').filter({ hasText: /^Absage/ });
    await expect(rejection).toContainText('Vorlage Version 1');
    await expect(dialog.getByRole('listitem').filter({ hasText: /^Eingangsbestätigung/ })).toContainText(
      'Standardtext',
    );
  } finally {
    await page.goto('/admin/mail-vorlagen?mail=application-rejected');
    const again = page.getByRole('form', { name: 'Vorlage: Absage' });
    await again.getByRole('button', { name: 'Standard wiederherstellen' }).click();
    await expect(page.getByText('Absage: Es gilt wieder der Standardtext.')).toBeVisible();
    await expect(page.getByText(/^Version 2 · .* · Standard wiederhergestellt$/)).toBeVisible();
  }
});
