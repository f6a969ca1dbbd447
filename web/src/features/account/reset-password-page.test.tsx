import { screen, waitFor } from '@testing-library/react';
import { RESET_REDIRECT_MS } from '@schlosstreffen/shared';
import { describe, expect, it } from 'vitest';
import {
  deferred,
  errorOf,
  findInput,
  findToast,
  input,
  mockApi,
  renderAt,
  setupScreenTests,
  unreachable,
} from '../../test/screen-helpers';

setupScreenTests();

const VALID = { body: { valid: true, email: 'lena.weber@example.de' } };

describe('/reset-password', () => {
  it("without a token: 'Ungültiger Link' and a way to request a new link", async () => {
    const api = mockApi();
    await renderAt('/reset-password');

    expect(await screen.findByRole('heading', { name: 'Ungültiger Link' })).toBeTruthy();
    expect(screen.getByText(/1 Stunde gültig/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Neuen Link anfordern' }).getAttribute('href')).toBe(
      '/forgot-password',
    );
    expect(await findToast('Ungültiger Link')).toContain('Es wurde kein Reset-Token gefunden.');
    expect(api.writes()).toEqual([]);
  });

  it("checks the token ('Token wird überprüft'), then shows 'Ungültiger Link' when it is invalid", async () => {
    const reply = deferred({ status: 400, body: { message: 'Der Reset-Link ist nicht mehr gültig.' } });
    const api = mockApi({ 'POST /api/auth/verify-reset-token': () => reply.promise });
    await renderAt('/reset-password?token=abgelaufen');

    expect(await screen.findByText(/Token wird überprüft/)).toBeTruthy();
    expect(api.writes()).toEqual([
      { method: 'POST', path: '/api/auth/verify-reset-token', body: { token: 'abgelaufen' } },
    ]);

    reply.release();
    expect(await screen.findByRole('heading', { name: 'Ungültiger Link' })).toBeTruthy();
    expect(screen.getByText(/1 Stunde gültig/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Neuen Link anfordern' }).getAttribute('href')).toBe(
      '/forgot-password',
    );
    expect(await findToast('Ungültiger oder abgelaufener Link')).toContain(
      'Der Reset-Link ist nicht mehr gültig.',
    );
    // Checked once, not again when the page mounted.
    expect(api.writes()).toHaveLength(1);
  });

  it('with a valid token: validates, sets the new password and goes to /login after 2 s', async () => {
    const reply = deferred({ body: { message: 'Passwort erfolgreich zurückgesetzt' } });
    const api = mockApi({
      'POST /api/auth/verify-reset-token': () => VALID,
      'POST /api/auth/reset-password': () => reply.promise,
    });
    const { router, user } = await renderAt('/reset-password?token=t0k3n');

    expect(await screen.findByRole('heading', { name: 'Neues Passwort setzen' })).toBeTruthy();
    expect(screen.getByText('lena.weber@example.de').parentElement?.textContent).toBe(
      'Für: lena.weber@example.de',
    );
    expect(input('Neues Passwort').getAttribute('autocomplete')).toBe('new-password');

    await user.type(input('Neues Passwort'), 'kurz');
    await user.click(screen.getByRole('button', { name: 'Passwort speichern' }));
    expect(errorOf(input('Neues Passwort'))).toBe('Passwort muss mindestens 8 Zeichen lang sein');

    await user.clear(input('Neues Passwort'));
    await user.type(input('Neues Passwort'), 'neuesPasswort1');
    await user.type(input('Passwort bestätigen'), 'neuesPasswort2');
    expect(errorOf(input('Neues Passwort'))).toBeNull();
    expect(errorOf(input('Passwort bestätigen'))).toBe('Passwörter stimmen nicht überein');

    await user.clear(input('Passwort bestätigen'));
    await user.type(input('Passwort bestätigen'), 'neuesPasswort1');
    await user.click(screen.getByRole('button', { name: 'Passwort speichern' }));

    expect((await screen.findByRole('button', { name: 'Setze Passwort...' })).hasAttribute('disabled')).toBe(
      true,
    );
    expect(api.writes().at(-1)).toEqual({
      method: 'POST',
      path: '/api/auth/reset-password',
      body: { token: 't0k3n', newPassword: 'neuesPasswort1' },
    });

    reply.release();
    expect(await screen.findByRole('heading', { name: 'Passwort erfolgreich zurückgesetzt' })).toBeTruthy();
    await findToast('Passwort zurückgesetzt');
    const doneAt = Date.now();
    expect(router.state.location.pathname).toBe('/reset-password');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'), {
      timeout: RESET_REDIRECT_MS + 1500,
    });
    expect(Date.now() - doneAt).toBeGreaterThanOrEqual(RESET_REDIRECT_MS - 300);
  });

  it("shows 'Fehler' when the reset fails and stays on the form", async () => {
    mockApi({
      'POST /api/auth/verify-reset-token': () => VALID,
      'POST /api/auth/reset-password': unreachable,
    });
    const { router, user } = await renderAt('/reset-password?token=t0k3n');

    await user.type(await findInput('Neues Passwort'), 'neuesPasswort1');
    await user.type(input('Passwort bestätigen'), 'neuesPasswort1');
    await user.click(screen.getByRole('button', { name: 'Passwort speichern' }));

    await findToast('Fehler', 'Passwort konnte nicht zurückgesetzt werden.');
    expect(screen.getByRole('heading', { name: 'Neues Passwort setzen' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/reset-password');
  });
});
