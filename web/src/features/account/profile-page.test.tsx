import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  deferred,
  errorOf,
  failWith,
  findInput,
  findToast,
  input,
  mockApi,
  mockSignedIn,
  renderAt,
  setupScreenTests,
  SIGNED_IN_USER,
} from '../../test/screen-helpers';

setupScreenTests();

describe('/profile', () => {
  it('sends signed-out visitors to /login', async () => {
    mockApi();
    const { router } = await renderAt('/profile');
    expect(router.state.location.pathname).toBe('/login');
    expect(router.state.location.search).toEqual({ redirect: '/profile' });
  });

  it("shows 'Mein Profil' with both cards, filled with the user's data", async () => {
    mockSignedIn();
    await renderAt('/profile');

    expect(await screen.findByRole('heading', { level: 1, name: 'Mein Profil' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Persönliche Informationen' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Passwort ändern' })).toBeTruthy();
    expect(input('Vorname').value).toBe('Lena');
    expect(input('Nachname').value).toBe('Weber');
    expect(input('Email').value).toBe('lena.weber@example.de');
    expect(input('Aktuelles Passwort').getAttribute('autocomplete')).toBe('current-password');
    expect(input('Neues Passwort').getAttribute('autocomplete')).toBe('new-password');
    expect(input('Passwort bestätigen').getAttribute('autocomplete')).toBe('new-password');
  });

  it('shows the profile validation messages on their fields', async () => {
    mockSignedIn();
    const { user } = await renderAt('/profile');

    await user.clear(await findInput('Vorname'));
    await user.clear(input('Nachname'));
    await user.clear(input('Email'));
    await user.type(input('Email'), 'lena@');
    await user.click(screen.getByRole('button', { name: 'Änderungen speichern' }));

    expect(errorOf(input('Vorname'))).toBe('Vorname ist erforderlich');
    expect(errorOf(input('Nachname'))).toBe('Nachname ist erforderlich');
    expect(errorOf(input('Email'))).toBe('Ungültige Email-Adresse');
    // The other card is untouched.
    expect(errorOf(input('Aktuelles Passwort'))).toBeNull();
  });

  it("saves the profile with 'Speichern...' while pending and refreshes the user", async () => {
    const updated = { ...SIGNED_IN_USER, firstName: 'Helena' };
    const reply = deferred({ body: updated });
    let saved = false;
    const api = mockApi({
      'GET /api/auth/user': () => ({ body: saved ? updated : SIGNED_IN_USER }),
      'PATCH /api/auth/profile': () => {
        saved = true;
        return reply.promise;
      },
    });
    const { queryClient, user } = await renderAt('/profile');

    await user.clear(await findInput('Vorname'));
    await user.type(input('Vorname'), 'Helena');
    await user.click(screen.getByRole('button', { name: 'Änderungen speichern' }));

    expect((await screen.findByRole('button', { name: 'Speichern...' })).hasAttribute('disabled')).toBe(true);
    expect(api.writes()).toEqual([
      {
        method: 'PATCH',
        path: '/api/auth/profile',
        body: { firstName: 'Helena', lastName: 'Weber', email: 'lena.weber@example.de' },
      },
    ]);

    reply.release();
    await findToast('Profil aktualisiert');
    await waitFor(() => expect(queryClient.getQueryData(['auth', 'user'])).toEqual(updated));
    expect(input('Vorname').value).toBe('Helena');
    expect(screen.getByRole('button', { name: 'Änderungen speichern' }).hasAttribute('disabled')).toBe(false);
  });

  it("shows 'Aktualisierung fehlgeschlagen' with the server's message", async () => {
    mockSignedIn({
      'PATCH /api/auth/profile': failWith(409, 'Diese Email-Adresse ist bereits registriert.'),
    });
    const { user } = await renderAt('/profile');

    await user.click(await screen.findByRole('button', { name: 'Änderungen speichern' }));

    await findToast('Aktualisierung fehlgeschlagen', 'Diese Email-Adresse ist bereits registriert.');
  });

  it('shows the password validation messages on their fields', async () => {
    mockSignedIn();
    const { user } = await renderAt('/profile');

    await user.type(await findInput('Neues Passwort'), 'kurz');
    await user.click(screen.getByRole('button', { name: 'Passwort ändern' }));

    expect(errorOf(input('Aktuelles Passwort'))).toBe('Aktuelles Passwort ist erforderlich');
    expect(errorOf(input('Neues Passwort'))).toBe('Neues Passwort muss mindestens 8 Zeichen lang sein');

    await user.type(input('Neues Passwort'), 'genug123');
    await user.type(input('Passwort bestätigen'), 'anders123');
    expect(errorOf(input('Neues Passwort'))).toBeNull();
    expect(errorOf(input('Passwort bestätigen'))).toBe('Passwörter stimmen nicht überein');
    // The other card is untouched.
    expect(errorOf(input('Vorname'))).toBeNull();
  });

  it("changes the password with 'Ändern...' while pending and clears the form", async () => {
    const reply = deferred({ body: { message: 'Passwort geändert' } });
    const api = mockSignedIn({ 'POST /api/auth/change-password': () => reply.promise });
    const { user } = await renderAt('/profile');

    await user.type(await findInput('Aktuelles Passwort'), 'schlosstreffen');
    await user.type(input('Neues Passwort'), 'nochSicherer1');
    await user.type(input('Passwort bestätigen'), 'nochSicherer1');
    await user.click(screen.getByRole('button', { name: 'Passwort ändern' }));

    expect((await screen.findByRole('button', { name: 'Ändern...' })).hasAttribute('disabled')).toBe(true);
    expect(api.writes()).toEqual([
      {
        method: 'POST',
        path: '/api/auth/change-password',
        body: { currentPassword: 'schlosstreffen', newPassword: 'nochSicherer1' },
      },
    ]);

    reply.release();
    await findToast('Passwort geändert');
    await waitFor(() => expect(input('Aktuelles Passwort').value).toBe(''));
    expect(input('Neues Passwort').value).toBe('');
    expect(input('Passwort bestätigen').value).toBe('');
    // A cleared form shows no errors.
    expect(errorOf(input('Aktuelles Passwort'))).toBeNull();
    expect(errorOf(input('Neues Passwort'))).toBeNull();
  });

  it("shows 'Passwortänderung fehlgeschlagen' with the server's message", async () => {
    mockSignedIn({ 'POST /api/auth/change-password': failWith(400, 'Das aktuelle Passwort ist falsch.') });
    const { user } = await renderAt('/profile');

    await user.type(await findInput('Aktuelles Passwort'), 'falsch');
    await user.type(input('Neues Passwort'), 'nochSicherer1');
    await user.type(input('Passwort bestätigen'), 'nochSicherer1');
    await user.click(screen.getByRole('button', { name: 'Passwort ändern' }));

    await findToast('Passwortänderung fehlgeschlagen', 'Das aktuelle Passwort ist falsch.');
    // Kept, so the user can correct the current password.
    expect(input('Neues Passwort').value).toBe('nochSicherer1');
  });
});
