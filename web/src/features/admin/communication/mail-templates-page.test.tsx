import { defaultMailText, MAIL_KEYS } from '@schlosstreffen/shared';
import type { MailSampleView, MailTemplateList, MailTemplateView } from '@schlosstreffen/shared/api';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { findToast, mockApi, renderAt, setupScreenTests, SIGNED_IN_USER } from '../../../test/screen-helpers';

setupScreenTests();

const ADMIN = { ...SIGNED_IN_USER, role: 'admin' } as const;
const REVIEWER = { ...SIGNED_IN_USER, role: 'reviewer' } as const;
const BASE = '/api/admin/mail-templates';

const viewOf = (version: number, text = defaultMailText('application-rejected')): MailTemplateView => ({
  key: 'application-rejected',
  version,
  isDefault: version === 0,
  changedAt: version ? '2026-12-01T09:30:00.000Z' : null,
  changedBy: version ? 'Anna Admin' : null,
  edition: { year: 2027 },
  ...text,
  versions: version
    ? [
        {
          version,
          isDefault: false,
          subject: text.subject,
          createdAt: '2026-12-01T09:30:00.000Z',
          createdBy: 'Anna Admin',
        },
      ]
    : [],
});

const SAMPLE: MailSampleView = {
  vehicle: null,
  values: {
    vorname: 'Max',
    fahrzeug: 'BMW M3 E46',
    dashboard_link: 'http://localhost:3000/dashboard',
    ausgabe: '2027',
    veranstaltung: 'Schlosstreffen 2027',
    datum: 'Samstag, 19. Juni 2027',
    uhrzeit: '10:00 – 20:00 Uhr',
    ort: 'Schloss',
  },
  vehicles: [{ id: '6f1f4f6e-52a5-4a8e-9a51-1c9a1f0c1a01', title: 'Opel Kadett', status: 'submitted' }],
};

/** An API that keeps the rejection mail's versions as the server would. */
function asAdmin() {
  let current = viewOf(0);
  const list = (): MailTemplateList => ({
    edition: { year: 2027 },
    mails: MAIL_KEYS.map((key) =>
      key === 'application-rejected'
        ? {
            key,
            version: current.version,
            isDefault: current.isDefault,
            changedAt: current.changedAt,
            changedBy: current.changedBy,
          }
        : { key, version: 0, isDefault: true, changedAt: null, changedBy: null },
    ),
  });
  return mockApi({
    'GET /api/auth/user': () => ({ body: ADMIN }),
    'GET /api/admin/editions': () => ({ body: { editions: [] } }),
    [`GET ${BASE}`]: () => ({ body: list() }),
    [`GET ${BASE}/application-rejected`]: () => ({ body: current }),
    [`GET ${BASE}/application-rejected/sample`]: () => ({ body: SAMPLE }),
    [`PUT ${BASE}/application-rejected`]: (body) => {
      const { subject, body: text } = body as { subject: string; body: string };
      current = viewOf(current.version + 1, { subject, body: text });
      return { body: current };
    },
  });
}

describe('/admin/mail-vorlagen', () => {
  it('shows "Zugriff verweigert" to reviewers, without reading the templates', async () => {
    const api = mockApi({ 'GET /api/auth/user': () => ({ body: REVIEWER }) });
    await renderAt('/admin/mail-vorlagen');
    expect(await screen.findByRole('heading', { level: 1, name: 'Zugriff verweigert' })).toBeTruthy();
    expect(api.calls.some((call) => call.path.startsWith(BASE))).toBe(false);
  });

  it('edits with placeholders and a live preview, names problems in German, and saves over the version it loaded', async () => {
    const api = asAdmin();
    const user = userEvent.setup();
    await renderAt('/admin/mail-vorlagen?mail=application-rejected');
    const form = await screen.findByRole('form', { name: 'Vorlage: Absage' });
    const preview = within(form).getByRole('region', { name: 'Vorschau' });
    expect(await within(preview).findByText('Deine Bewerbung beim Schlosstreffen')).toBeTruthy();

    const subject = within(form).getByRole('textbox', { name: 'Betreff' });
    await user.clear(subject);
    await user.type(subject, 'Absage für {{fahrzeug} {{auto}');
    expect(within(form).getByRole('alert').textContent).toContain(
      'Betreff: Den Platzhalter {auto} gibt es in dieser E-Mail nicht.',
    );
    await user.click(within(form).getByRole('button', { name: 'Speichern' }));
    expect(api.writes()).toEqual([]);

    await user.clear(subject);
    await user.type(subject, 'Absage für {{fahrzeug} ');
    // A placeholder from the list goes where the cursor is.
    const body = within(form).getByRole('textbox', { name: 'Text' });
    await user.click(body);
    await user.keyboard('{Control>}{End}{/Control}');
    await user.click(within(form).getByRole('button', { name: /^\{ausgabe\} einfügen/ }));
    expect((body as HTMLTextAreaElement).value.endsWith('({dashboard_link}){ausgabe}')).toBe(true);
    expect(within(preview).getByTestId('vorschau-betreff').textContent).toBe('Absage für BMW M3 E46');
    expect(within(form).queryByRole('alert')).toBeNull();
    expect(within(form).getByRole('status').textContent).toBe('Ungespeicherte Änderungen.');

    await user.click(within(form).getByRole('button', { name: 'Speichern' }));
    expect(await findToast('Absage: Version 1 gilt ab der nächsten E-Mail.')).toBeTruthy();
    expect(api.writes()).toEqual([
      {
        method: 'PUT',
        path: `${BASE}/application-rejected`,
        body: {
          subject: 'Absage für {fahrzeug} ',
          body: expect.stringMatching(/\{ausgabe\}$/),
          baseVersion: 0,
        },
      },
    ]);
    await waitFor(() =>
      expect(screen.getByRole('region', { name: 'Versionen' }).textContent).toContain('Version 1'),
    );
    expect(within(screen.getByRole('navigation', { name: 'E-Mails' })).getByText('Version 1')).toBeTruthy();
  });

  it('asks before another mail drops unsaved changes, and keeps them when told no', async () => {
    asAdmin();
    const user = userEvent.setup();
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    await renderAt('/admin/mail-vorlagen?mail=application-rejected');
    const form = await screen.findByRole('form', { name: 'Vorlage: Absage' });
    const subject = within(form).getByRole('textbox', { name: 'Betreff' });
    await user.type(subject, '!');
    const nav = screen.getByRole('navigation', { name: 'E-Mails' });
    await user.click(within(nav).getByRole('button', { name: /^Warteliste/ }));
    expect(confirm).toHaveBeenCalledWith('Ungespeicherte Änderungen verwerfen?');
    expect((subject as HTMLInputElement).value).toBe('Deine Bewerbung beim Schlosstreffen!');
    expect(
      within(nav)
        .getByRole('button', { name: /^Absage(?! der)/ })
        .getAttribute('aria-current'),
    ).toBe('page');
    confirm.mockRestore();
  });
});
