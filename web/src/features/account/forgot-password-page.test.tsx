import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  deferred,
  errorOf,
  failWith,
  findInput,
  findToast,
  input,
  mockApi,
  renderAt,
  setupScreenTests,
  unreachable,
} from '../../test/screen-helpers';

setupScreenTests();

const SENT = 'Falls die E-Mail-Adresse existiert, wurde ein Reset-Link versendet.';

describe('/forgot-password', () => {
  it("shows 'Ungültige Email-Adresse' on the field", async () => {
    mockApi();
    const { user } = await renderAt('/forgot-password');

    await user.type(await findInput('Email'), 'lena@');
    await user.click(screen.getByRole('button', { name: 'Reset-Link senden' }));

    expect(errorOf(input('Email'))).toBe('Ungültige Email-Adresse');
    expect(screen.getByRole('link', { name: 'Schließen' }).getAttribute('href')).toBe('/login');
  });

  it("sends the link with 'Sende...' while pending, then confirms", async () => {
    const reply = deferred({ body: { message: SENT } });
    const api = mockApi({ 'POST /api/auth/forgot-password': () => reply.promise });
    const { user } = await renderAt('/forgot-password');

    await user.type(await findInput('Email'), ' Lena.Weber@Example.de ');
    await user.click(screen.getByRole('button', { name: 'Reset-Link senden' }));

    expect((await screen.findByRole('button', { name: 'Sende...' })).hasAttribute('disabled')).toBe(true);
    expect(api.writes()).toEqual([
      { method: 'POST', path: '/api/auth/forgot-password', body: { email: 'lena.weber@example.de' } },
    ]);

    reply.release();
    expect(await screen.findByRole('heading', { name: 'E-Mail versendet!' })).toBeTruthy();
    expect(await findToast('E-Mail versendet')).toContain(SENT);
    expect(screen.getByRole('link', { name: 'Zurück zum Login' }).getAttribute('href')).toBe('/login');
    expect(screen.queryByRole('button', { name: 'Reset-Link senden' })).toBeNull();
  });

  it("shows 'Fehler' with the server's message, else the fallback", async () => {
    mockApi({
      'POST /api/auth/forgot-password': failWith(
        429,
        'Zu viele Versuche. Bitte versuche es in 5 Minuten erneut.',
      ),
    });
    const { user } = await renderAt('/forgot-password');

    await user.type(await findInput('Email'), 'lena@example.de');
    await user.click(screen.getByRole('button', { name: 'Reset-Link senden' }));

    await findToast('Fehler', 'Zu viele Versuche. Bitte versuche es in 5 Minuten erneut.');
    expect(screen.queryByRole('heading', { name: 'E-Mail versendet!' })).toBeNull();
  });

  it("falls back to 'Ein Fehler ist aufgetreten.' when the server cannot be reached", async () => {
    mockApi({ 'POST /api/auth/forgot-password': unreachable });
    const { user } = await renderAt('/forgot-password');

    await user.type(await findInput('Email'), 'lena@example.de');
    await user.click(screen.getByRole('button', { name: 'Reset-Link senden' }));

    await findToast('Fehler', 'Ein Fehler ist aufgetreten.');
  });
});
