import { CONSENTS, PRIVACY_MESSAGES } from '@schlosstreffen/shared';
import type { Consent, CurrentUser, DataExport } from '@schlosstreffen/shared/api';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import {
  deferred,
  errorOf,
  failWith,
  findToast,
  mockApi,
  renderAt,
  setupScreenTests,
  SIGNED_IN_USER,
  type Handlers,
} from '../../test/screen-helpers';

setupScreenTests();

const NEW_EMAIL = 'lena.neu@example.de';

function consent(overrides: Partial<Consent> & Pick<Consent, 'id' | 'kind'>): Consent {
  return {
    vehicleId: 'v1',
    vehicleTitle: 'Rote Zora',
    version: CONSENTS[overrides.kind].version,
    wording: CONSENTS[overrides.kind].text,
    source: 'application',
    grantedAt: '2026-03-05T17:45:00.000Z',
    withdrawnAt: null,
    ...overrides,
  };
}

function dataExport(overrides: Partial<DataExport> = {}): DataExport {
  return {
    id: 'e1',
    status: 'queued',
    progress: 0,
    createdAt: '2026-05-01T08:00:00.000Z',
    expiresAt: null,
    downloadUrl: null,
    error: null,
    ...overrides,
  };
}

/** Signed in as `user`; no consents and no export unless `handlers` say otherwise. */
function signedIn(handlers: Handlers = {}, user: CurrentUser = SIGNED_IN_USER) {
  return mockApi({
    'GET /api/auth/user': () => ({ body: user }),
    'GET /api/account/consents': () => ({ body: [] }),
    'GET /api/account/export': () => ({ body: null }),
    ...handlers,
  });
}

const personal = () => screen.getByRole('form', { name: 'Persönliche Informationen' });
const section = (name: string) => screen.getByRole('region', { name });
const field = (scope: HTMLElement, label: string) =>
  within(scope).getByLabelText(new RegExp(`^${label}( \\*)?$`)) as HTMLInputElement;

describe('/profile: email change', () => {
  it('asks for the current password only while a different address is entered', async () => {
    signedIn();
    const { user } = await renderAt('/profile');
    const email = field(await screen.findByRole('form', { name: 'Persönliche Informationen' }), 'Email');

    expect(within(personal()).queryByLabelText(/Aktuelles Passwort/)).toBeNull();
    await user.clear(email);
    await user.type(email, 'lena.neu@');
    expect(within(personal()).queryByLabelText(/Aktuelles Passwort/)).toBeNull();
    await user.type(email, 'example.de');
    expect(field(personal(), 'Aktuelles Passwort').getAttribute('autocomplete')).toBe('current-password');

    await user.clear(email);
    await user.type(email, 'LENA.WEBER@example.de');
    expect(within(personal()).queryByLabelText(/Aktuelles Passwort/)).toBeNull();
  });

  it('needs the password, then sends it and shows the pending notice', async () => {
    let saved = false;
    const pendingUser = { ...SIGNED_IN_USER, pendingEmail: NEW_EMAIL };
    const api = signedIn({
      'GET /api/auth/user': () => ({ body: saved ? pendingUser : SIGNED_IN_USER }),
      'PATCH /api/auth/profile': () => {
        saved = true;
        return { body: pendingUser };
      },
    });
    const { user } = await renderAt('/profile');
    const email = field(await screen.findByRole('form', { name: 'Persönliche Informationen' }), 'Email');
    expect(screen.queryByTestId('pending-email')).toBeNull();

    await user.clear(email);
    await user.type(email, NEW_EMAIL);
    await user.click(within(personal()).getByRole('button', { name: 'Änderungen speichern' }));
    expect(errorOf(field(personal(), 'Aktuelles Passwort'))).toBe(PRIVACY_MESSAGES.passwordRequiredForEmail);
    expect(api.writes()).toEqual([]);

    await user.type(field(personal(), 'Aktuelles Passwort'), 'schlosstreffen');
    await user.click(within(personal()).getByRole('button', { name: 'Änderungen speichern' }));

    await findToast('Profil aktualisiert', PRIVACY_MESSAGES.emailChangePending(NEW_EMAIL));
    expect(api.writes()).toEqual([
      {
        method: 'PATCH',
        path: '/api/auth/profile',
        body: { firstName: 'Lena', lastName: 'Weber', email: NEW_EMAIL, currentPassword: 'schlosstreffen' },
      },
    ]);
    const notice = await screen.findByTestId('pending-email');
    expect(notice.textContent).toContain('Neue E-Mail-Adresse noch nicht bestätigt');
    expect(notice.textContent).toContain(PRIVACY_MESSAGES.emailChangePending(NEW_EMAIL));
    // The old address stays until the link is opened.
    expect(field(personal(), 'Email').value).toBe(SIGNED_IN_USER.email);
    expect(within(personal()).queryByLabelText(/Aktuelles Passwort/)).toBeNull();
  });

  it('shows a wrong password on the field', async () => {
    signedIn({
      'PATCH /api/auth/profile': () => ({
        status: 400,
        body: {
          message: 'Das aktuelle Passwort ist falsch.',
          issues: [{ field: 'currentPassword', message: 'Das aktuelle Passwort ist falsch.' }],
        },
      }),
    });
    const { user } = await renderAt('/profile');
    const email = field(await screen.findByRole('form', { name: 'Persönliche Informationen' }), 'Email');

    await user.clear(email);
    await user.type(email, NEW_EMAIL);
    await user.type(field(personal(), 'Aktuelles Passwort'), 'falsch');
    await user.click(within(personal()).getByRole('button', { name: 'Änderungen speichern' }));

    await findToast('Aktualisierung fehlgeschlagen', 'Das aktuelle Passwort ist falsch.');
    expect(errorOf(field(personal(), 'Aktuelles Passwort'))).toBe('Das aktuelle Passwort ist falsch.');
    await user.type(field(personal(), 'Aktuelles Passwort'), '!');
    expect(errorOf(field(personal(), 'Aktuelles Passwort'))).toBeNull();
  });

  it('shows the pending notice on load while a new address waits for confirmation', async () => {
    signedIn({}, { ...SIGNED_IN_USER, pendingEmail: NEW_EMAIL });
    await renderAt('/profile');

    const notice = await screen.findByTestId('pending-email');
    expect(notice.textContent).toContain(NEW_EMAIL);
    expect(notice.textContent).toContain(`Bis dahin gilt weiter ${SIGNED_IN_USER.email}.`);
  });
});

describe('/profile: an address not confirmed yet', () => {
  it('says what waits on the link, sends a new one and notices the confirmation', async () => {
    let verified = false;
    const api = signedIn(
      {
        'GET /api/auth/user': () => ({ body: { ...SIGNED_IN_USER, emailVerified: verified } }),
        'POST /api/auth/resend-confirmation': () => ({
          body: { message: PRIVACY_MESSAGES.confirmationSent(SIGNED_IN_USER.email) },
        }),
      },
      { ...SIGNED_IN_USER, emailVerified: false },
    );
    const { user } = await renderAt('/profile');

    const notice = await screen.findByTestId('email-confirm-notice');
    expect(notice.textContent).toContain('Bitte bestätige deine E-Mail-Adresse');
    expect(notice.textContent).toContain(SIGNED_IN_USER.email);
    await user.click(within(notice).getByRole('button', { name: 'Link erneut senden' }));
    await findToast('Link versendet', PRIVACY_MESSAGES.confirmationSent(SIGNED_IN_USER.email));
    expect(api.writes()).toContainEqual({ method: 'POST', path: '/api/auth/resend-confirmation', body: {} });

    verified = true;
    await user.click(within(notice).getByRole('button', { name: 'Ich habe bestätigt' }));
    await findToast('E-Mail-Adresse bestätigt', PRIVACY_MESSAGES.emailConfirmed);
    await waitFor(() => expect(screen.queryByTestId('email-confirm-notice')).toBeNull());
  });
});

describe('/profile: Einwilligungen', () => {
  it('lists each consent per vehicle with its dates and withdraws one after the confirmation', async () => {
    let consents = [
      consent({ id: 'c1', kind: 'media' }),
      consent({ id: 'c2', kind: 'quartett', withdrawnAt: '2026-04-02T09:00:00.000Z' }),
      consent({ id: 'c3', kind: 'contact', vehicleId: 'v2', vehicleTitle: 'BMW M3' }),
    ];
    const answer = deferred({ body: { ...consents[0], withdrawnAt: '2026-05-01T10:00:00.000Z' } });
    let reads = 0;
    const api = signedIn({
      'GET /api/account/consents': () => {
        reads += 1;
        return { body: consents };
      },
      'POST /api/account/consents/c1/withdraw': () => {
        consents = consents.map((item) =>
          item.id === 'c1' ? { ...item, withdrawnAt: '2026-05-01T10:00:00.000Z' } : item,
        );
        return answer.promise;
      },
    });
    const { user } = await renderAt('/profile');

    const list = await screen.findByRole('list', { name: 'Einwilligungen' });
    const [media, quartett, contact] = within(list).getAllByRole('listitem');
    expect(media!.textContent).toContain('Mediennutzung');
    expect(media!.textContent).toContain('Rote Zora');
    expect(media!.textContent).toContain('Erteilt am 05.03.2026');
    expect(media!.textContent).toContain(CONSENTS.media.text);
    expect(quartett!.textContent).toContain('Widerrufen am 02.04.2026');
    expect(within(quartett!).queryByRole('button', { name: /Widerrufen/ })).toBeNull();
    expect(contact!.textContent).toContain('BMW M3');

    await user.click(within(media!).getByRole('button', { name: /^Widerrufen/ }));
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByText('Einwilligung „Mediennutzung“ widerrufen?')).toBeTruthy();
    expect(dialog.textContent).toContain(CONSENTS.media.withdrawal);
    expect(api.writes()).toEqual([]);

    await user.click(within(dialog).getByRole('button', { name: 'Widerrufen' }));
    expect(await within(dialog).findByRole('button', { name: 'Wird widerrufen...' })).toBeTruthy();
    expect(api.writes()).toEqual([{ method: 'POST', path: '/api/account/consents/c1/withdraw', body: {} }]);

    const readsBefore = reads;
    answer.release();
    await findToast('Einwilligung widerrufen', '„Mediennutzung“ für Rote Zora');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    await waitFor(() => expect(reads).toBeGreaterThan(readsBefore));
    const refreshed = within(await screen.findByRole('list', { name: 'Einwilligungen' })).getAllByRole(
      'listitem',
    )[0]!;
    await waitFor(() => expect(refreshed.textContent).toContain('Widerrufen am 01.05.2026'));
  });

  it('keeps the consent when the dialog is cancelled', async () => {
    const api = signedIn({
      'GET /api/account/consents': () => ({ body: [consent({ id: 'c1', kind: 'contact' })] }),
    });
    const { user } = await renderAt('/profile');

    await user.click(await screen.findByRole('button', { name: /^Widerrufen/ }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog.textContent).toContain(CONSENTS.contact.withdrawal);
    await user.click(within(dialog).getByRole('button', { name: 'Abbrechen' }));

    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(api.writes()).toEqual([]);
  });

  it('shows the server message when the consent was already withdrawn', async () => {
    signedIn({
      'GET /api/account/consents': () => ({ body: [consent({ id: 'c1', kind: 'media' })] }),
      'POST /api/account/consents/c1/withdraw': failWith(409, PRIVACY_MESSAGES.consentAlreadyWithdrawn),
    });
    const { user } = await renderAt('/profile');

    await user.click(await screen.findByRole('button', { name: /^Widerrufen/ }));
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Widerrufen' }),
    );

    await findToast('Widerruf fehlgeschlagen', PRIVACY_MESSAGES.consentAlreadyWithdrawn);
  });

  it('says when there are no consents yet', async () => {
    signedIn();
    await renderAt('/profile');

    expect(await screen.findByRole('heading', { name: 'Keine Einwilligungen' })).toBeTruthy();
    expect(within(section('Einwilligungen')).getByRole('link', { name: 'Fahrzeug anmelden' })).toBeTruthy();
  });

  it('shows a load error with a retry', async () => {
    signedIn({ 'GET /api/account/consents': failWith(500, 'Die Datenbank ist nicht erreichbar.') });
    await renderAt('/profile');

    const alert = await within(section('Einwilligungen')).findByRole('alert');
    expect(alert.textContent).toContain('Einwilligungen konnten nicht geladen werden');
    expect(alert.textContent).toContain('Die Datenbank ist nicht erreichbar.');
    expect(within(alert).getByRole('button', { name: 'Erneut versuchen' })).toBeTruthy();
  });
});

describe('/profile: Meine Daten', () => {
  it('starts the export, shows its progress while polling and then the download link', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const expiresAt = '2026-05-08T08:00:00.000Z';
    const answers = [
      dataExport({ status: 'running', progress: 40 }),
      dataExport({
        status: 'ready',
        progress: 100,
        expiresAt,
        downloadUrl: '/api/account/export/e1/download',
      }),
    ];
    let started = false;
    let reads = 0;
    const api = signedIn({
      'GET /api/account/export': () => {
        if (!started) return { body: null };
        return { body: answers[Math.min(reads++, answers.length - 1)] };
      },
      'POST /api/account/export': () => {
        started = true;
        return { status: 201, body: dataExport() };
      },
    });
    const { user } = await renderAt('/profile');
    const data = await screen.findByRole('region', { name: 'Meine Daten' });

    await user.click(await within(data).findByRole('button', { name: 'Meine Daten herunterladen' }));

    await findToast('Datenexport gestartet', PRIVACY_MESSAGES.exportStarted);
    expect(api.writes()).toEqual([{ method: 'POST', path: '/api/account/export', body: {} }]);
    expect(within(data).getByText('Wartet auf den Start')).toBeTruthy();
    expect(within(data).getByRole('button', { name: 'Wird erstellt...' }).hasAttribute('disabled')).toBe(
      true,
    );

    await vi.advanceTimersByTimeAsync(2000);
    await waitFor(() =>
      expect(within(data).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('40'),
    );
    expect(within(data).getByText('40 %')).toBeTruthy();

    await vi.advanceTimersByTimeAsync(2000);
    const link = await within(data).findByRole('link', { name: 'ZIP herunterladen' });
    expect(link.getAttribute('href')).toBe('/api/account/export/e1/download');
    expect(data.textContent).toContain('verfügbar bis 08.05.2026, 10:00 Uhr');
    expect(within(data).queryByRole('progressbar')).toBeNull();
    await findToast('Datenexport fertig');

    const readsWhenReady = reads;
    await vi.advanceTimersByTimeAsync(6000);
    expect(reads).toBe(readsWhenReady);
  });

  it('shows a failed export with its error and starts a new one on retry', async () => {
    const api = signedIn({
      'GET /api/account/export': () => ({
        body: dataExport({ status: 'failed', error: 'Das Archiv konnte nicht geschrieben werden.' }),
      }),
      'POST /api/account/export': () => ({ status: 201, body: dataExport() }),
    });
    const { user } = await renderAt('/profile');
    const data = await screen.findByRole('region', { name: 'Meine Daten' });

    const alert = await within(data).findByRole('alert');
    expect(alert.textContent).toContain('Der Datenexport ist fehlgeschlagen.');
    expect(alert.textContent).toContain('Das Archiv konnte nicht geschrieben werden.');

    await user.click(within(data).getByRole('button', { name: 'Erneut versuchen' }));
    await findToast('Datenexport gestartet');
    expect(api.writes()).toEqual([{ method: 'POST', path: '/api/account/export', body: {} }]);
  });

  it('offers a new export once the last one has expired', async () => {
    signedIn({
      'GET /api/account/export': () => ({
        body: dataExport({ status: 'ready', progress: 100, expiresAt: '2026-01-01T00:00:00.000Z' }),
      }),
    });
    await renderAt('/profile');
    const data = await screen.findByRole('region', { name: 'Meine Daten' });

    expect(await within(data).findByText(/letzter Datenexport ist abgelaufen/)).toBeTruthy();
    expect(within(data).queryByRole('link', { name: 'ZIP herunterladen' })).toBeNull();
    expect(within(data).getByRole('button', { name: 'Meine Daten herunterladen' })).toBeTruthy();
  });
});

describe('/profile: Konto löschen', () => {
  it('says what is deleted and what stays', async () => {
    signedIn();
    await renderAt('/profile');

    const card = await screen.findByRole('region', { name: 'Konto löschen' });
    for (const text of [
      'dein Konto',
      'Fahrzeuge und Bewerbungen mit allen Fotos',
      'Einladungen',
      'Einwilligungen',
      'Besucher-Voranmeldung mit derselben E-Mail-Adresse',
      'Datenexporte',
      'ohne deinen Namen',
      'gedruckte Karten des Auto-Quartetts',
    ]) {
      expect(card.textContent).toContain(text);
    }
  });

  it('shows a wrong password on the field and keeps the account', async () => {
    const api = signedIn({
      'POST /api/account/delete': () => ({
        status: 400,
        body: {
          message: 'Das Passwort ist falsch.',
          issues: [{ field: 'password', message: 'Das Passwort ist falsch.' }],
        },
      }),
    });
    const { router, user } = await renderAt('/profile');
    const card = await screen.findByRole('region', { name: 'Konto löschen' });

    await user.click(within(card).getByRole('button', { name: 'Konto endgültig löschen' }));
    expect(errorOf(field(card, 'Passwort zur Bestätigung'))).toBe('Passwort ist erforderlich');
    expect(screen.queryByRole('alertdialog')).toBeNull();

    await user.type(field(card, 'Passwort zur Bestätigung'), 'falsch');
    await user.click(within(card).getByRole('button', { name: 'Konto endgültig löschen' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(api.writes()).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Ja, endgültig löschen' }));

    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(errorOf(field(card, 'Passwort zur Bestätigung'))).toBe('Das Passwort ist falsch.');
    // The dialog hands focus back when its closing animation ends, later on a busy machine.
    await waitFor(() => expect(document.activeElement).toBe(field(card, 'Passwort zur Bestätigung')), {
      timeout: 5000,
    });
    expect(api.writes()).toEqual([
      { method: 'POST', path: '/api/account/delete', body: { password: 'falsch' } },
    ]);
    expect(router.state.location.pathname).toBe('/profile');
  });

  it('deletes the account after the confirmation, forgets the user and goes to /', async () => {
    let deleted = false;
    const api = signedIn({
      'GET /api/auth/user': () => (deleted ? { status: 401 } : { body: SIGNED_IN_USER }),
      'GET /api/vehicles/public': () => ({ body: [] }),
      'POST /api/account/delete': () => {
        deleted = true;
        return { body: { message: PRIVACY_MESSAGES.accountDeleted } };
      },
    });
    const { queryClient, router, user } = await renderAt('/profile');
    const card = await screen.findByRole('region', { name: 'Konto löschen' });

    await user.type(field(card, 'Passwort zur Bestätigung'), 'schlosstreffen');
    await user.click(within(card).getByRole('button', { name: 'Konto endgültig löschen' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog.textContent).toContain('lässt sich nicht rückgängig machen');
    await user.click(within(dialog).getByRole('button', { name: 'Ja, endgültig löschen' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    await findToast('Konto gelöscht', PRIVACY_MESSAGES.accountDeleted);
    expect(api.writes()).toEqual([
      { method: 'POST', path: '/api/account/delete', body: { password: 'schlosstreffen' } },
    ]);
    expect(queryClient.getQueryData(['auth', 'user'])).toBeNull();
    expect(queryClient.getQueryData(['vehicles', 'consents', 'mine'])).toBeUndefined();
    expect(queryClient.getQueryData(['account', 'export'])).toBeUndefined();
    expect(
      within(screen.getByRole('navigation', { name: 'Hauptnavigation' })).getByRole('link', {
        name: 'Anmelden',
      }),
    ).toBeTruthy();
  });
});
