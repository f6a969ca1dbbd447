import { fireEvent, screen, waitFor } from '@testing-library/react';
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
  mockSigningIn,
  renderAt,
  setupScreenTests,
  SIGNED_IN_USER,
  unreachable,
  type User,
} from '../../test/screen-helpers';

setupScreenTests();

async function signIn(user: User) {
  await user.type(await findInput('Email'), 'lena.weber@example.de');
  await user.type(input('Passwort'), 'schlosstreffen');
  await user.click(screen.getByRole('button', { name: 'Anmelden' }));
}

describe('/login', () => {
  it('shows the validation messages on their fields', async () => {
    mockApi();
    const { user } = await renderAt('/login');

    await user.click(await screen.findByRole('button', { name: 'Anmelden' }));

    expect(errorOf(input('Email'))).toBe('Ungültige Email-Adresse');
    expect(errorOf(input('Passwort'))).toBe('Passwort ist erforderlich');

    await user.type(input('Email'), 'lena@example.de');
    expect(errorOf(input('Email'))).toBeNull();
  });

  it('links to password reset and registration and sets its meta', async () => {
    mockApi();
    await renderAt('/login');

    expect((await findInput('Passwort')).getAttribute('autocomplete')).toBe('current-password');
    expect(input('Email').getAttribute('autocomplete')).toBe('email');
    expect(screen.getByRole('link', { name: 'Passwort vergessen?' }).getAttribute('href')).toBe(
      '/forgot-password',
    );
    expect(screen.getByRole('link', { name: 'Jetzt registrieren' }).getAttribute('href')).toBe('/register');
    expect(screen.getByRole('link', { name: 'Schließen' }).getAttribute('href')).toBe('/');
    expect(document.title).toBe('Anmelden – Schlosstreffen');
    expect(document.querySelector('link[rel="canonical"]')?.getAttribute('href')).toMatch(/\/login$/);
  });

  it("signs in with 'Anmelden...' while pending, refreshes the user and goes to /dashboard", async () => {
    const reply = deferred({ body: SIGNED_IN_USER });
    const api = mockSigningIn('POST /api/auth/login', reply.promise);
    const { router, queryClient, user } = await renderAt('/login');

    await signIn(user);

    const pending = await screen.findByRole('button', { name: 'Anmelden...' });
    expect(pending.hasAttribute('disabled')).toBe(true);
    expect(api.writes()).toEqual([
      {
        method: 'POST',
        path: '/api/auth/login',
        body: { email: 'lena.weber@example.de', password: 'schlosstreffen' },
      },
    ]);

    reply.release();
    expect(await findToast('Login erfolgreich')).toContain('Willkommen zurück!');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(queryClient.getQueryData(['auth', 'user'])).toEqual(SIGNED_IN_USER);
  });

  it('follows a same-site redirect target', async () => {
    mockSigningIn('POST /api/auth/login');
    const { router, user } = await renderAt('/login?redirect=%2Fprofile');

    await signIn(user);

    await waitFor(() => expect(router.state.location.pathname).toBe('/profile'));
    expect(await screen.findByRole('heading', { name: 'Mein Profil' })).toBeTruthy();
  });

  it('ignores a redirect target on another origin', async () => {
    mockSigningIn('POST /api/auth/login');
    const { router, user } = await renderAt('/login?redirect=%2F%2Fevil.example');

    await signIn(user);

    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });

  it("shows the server's message when the login fails", async () => {
    mockApi({ 'POST /api/auth/login': failWith(401, 'Falsche Email oder Passwort.') });
    const { router, user } = await renderAt('/login');

    await signIn(user);

    expect(await findToast('Login fehlgeschlagen')).toContain('Falsche Email oder Passwort.');
    expect(router.state.location.pathname).toBe('/login');
    expect(screen.getByRole('button', { name: 'Anmelden' }).hasAttribute('disabled')).toBe(false);
  });

  it('shows the fallback when the server cannot be reached', async () => {
    mockApi({ 'POST /api/auth/login': unreachable });
    const { user } = await renderAt('/login');

    await signIn(user);

    await findToast('Login fehlgeschlagen', 'Falsche Email oder Passwort.');
  });

  it('sends a signed-in user on to the redirect target', async () => {
    mockSignedIn({ 'GET /api/vehicles': () => ({ body: [] }) });
    const { router } = await renderAt('/login?redirect=%2Fprofile');
    expect(router.state.location.pathname).toBe('/profile');
  });
});

describe('/login for staff with a second factor', () => {
  const STAFF = { ...SIGNED_IN_USER, role: 'admin' } as const;

  /** Signed out until the second factor's `route` answers `reply` with 200. */
  function mockSecondFactor(
    step: 'setup' | 'code',
    handlers: Record<string, (body: unknown) => { status?: number; body?: unknown }>,
  ) {
    let signedIn = false;
    const api = mockApi({
      'POST /api/auth/login': () => ({
        body: { secondFactor: step, message: 'Weiter mit dem zweiten Faktor.' },
      }),
      'GET /api/auth/user': () => (signedIn ? { body: STAFF } : { status: 401 }),
      'GET /api/vehicles': () => ({ body: [] }),
      ...Object.fromEntries(
        Object.entries(handlers).map(([route, handler]) => [
          route,
          (body: unknown) => {
            const reply = handler(body);
            if ((reply.status ?? 200) === 200 && route.startsWith('POST')) signedIn = true;
            return reply;
          },
        ]),
      ),
    });
    return api;
  }

  it('asks for the code after the password; a wrong one shows on the field, the right one signs in', async () => {
    const api = mockSecondFactor('code', {
      'POST /api/auth/second-factor/verify': (body) =>
        (body as { code?: string }).code === '654321'
          ? { body: { user: STAFF, recoveryCodesLeft: 10 } }
          : {
              status: 400,
              body: {
                message: 'Der Code ist ungültig oder wurde schon verwendet.',
                issues: [{ field: 'code', message: 'Der Code ist ungültig oder wurde schon verwendet.' }],
              },
            },
    });
    const { router, queryClient, user } = await renderAt('/login');
    await signIn(user);

    expect(await screen.findByRole('heading', { name: 'Anmeldung bestätigen' })).toBeTruthy();
    const code = input('Code aus der App');
    expect(code.getAttribute('autocomplete')).toBe('one-time-code');
    expect(code.getAttribute('inputmode')).toBe('numeric');
    expect(queryClient.getQueryData(['auth', 'user'])).toBeNull();

    await user.type(code, '123456');
    await user.click(screen.getByRole('button', { name: 'Bestätigen' }));
    await waitFor(() =>
      expect(errorOf(input('Code aus der App'))).toBe('Der Code ist ungültig oder wurde schon verwendet.'),
    );
    expect(router.state.location.pathname).toBe('/login');

    await user.clear(input('Code aus der App'));
    await user.type(input('Code aus der App'), '654 321');
    await user.click(screen.getByRole('button', { name: 'Bestätigen' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(queryClient.getQueryData(['auth', 'user'])).toEqual(STAFF);
    expect(api.writes().at(-1)).toEqual({
      method: 'POST',
      path: '/api/auth/second-factor/verify',
      body: { code: '654321' },
    });
  });

  it('takes a recovery code instead of the app', async () => {
    const api = mockSecondFactor('code', {
      'POST /api/auth/second-factor/verify': () => ({ body: { user: STAFF, recoveryCodesLeft: 9 } }),
    });
    const { router, user } = await renderAt('/login');
    await signIn(user);

    await user.click(await screen.findByRole('button', { name: 'Wiederherstellungscode verwenden' }));
    await user.type(input('Wiederherstellungscode'), 'abcde-fghjk');
    await user.click(screen.getByRole('button', { name: 'Mit Wiederherstellungscode anmelden' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(await findToast('Login erfolgreich')).toContain('noch 9 Codes übrig');
    expect(api.writes().at(-1)?.body).toEqual({ recoveryCode: 'ABCDEFGHJK' });
  });

  it('sets the second factor up: QR code and key, the code, then the recovery codes once', async () => {
    const codes = 'ABCDEFGHJK'.split('').map((letter) => `${letter}BCDE-FGHJK`);
    mockSecondFactor('setup', {
      'GET /api/auth/second-factor/setup': () => ({
        body: {
          otpauthUri: 'otpauth://totp/Schlosstreffen:lena?secret=JBSWY3DPEHPK3PXP',
          key: 'JBSW Y3DP EHPK 3PXP',
          qrCode: 'data:image/svg+xml;base64,PHN2Zy8+',
          issuer: 'Schlosstreffen',
          account: 'lena.weber@example.de',
        },
      }),
      'POST /api/auth/second-factor/setup': () => ({
        body: { user: STAFF, recoveryCodes: codes, message: 'Zweiter Faktor eingerichtet' },
      }),
    });
    const { router, user } = await renderAt('/login');
    await signIn(user);

    expect(await screen.findByRole('heading', { name: 'Zweiten Faktor einrichten' })).toBeTruthy();
    const qr = await screen.findByRole('img', {
      name: 'QR-Code mit dem Schlüssel für lena.weber@example.de',
    });
    expect(qr.getAttribute('src')).toBe('data:image/svg+xml;base64,PHN2Zy8+');
    expect(screen.getByText('JBSW Y3DP EHPK 3PXP')).toBeTruthy();

    await user.type(input('Code aus der App'), '123456');
    await user.click(screen.getByRole('button', { name: 'Einrichten und anmelden' }));
    expect(await screen.findByRole('heading', { name: 'Wiederherstellungscodes' })).toBeTruthy();
    const list = screen.getByRole('list', { name: 'Wiederherstellungscodes' });
    expect(list.querySelectorAll('li')).toHaveLength(10);
    const next = screen.getByRole('button', { name: 'Weiter' });
    expect(next.hasAttribute('disabled')).toBe(true);
    // Signed in on the server meanwhile, but the page stays until the codes are kept.
    expect(router.state.location.pathname).toBe('/login');

    // Ticked without moving the focus: jsdom has no PointerEvent for the box's blur handling.
    fireEvent.click(
      screen.getByRole('checkbox', { name: 'Ich habe die Wiederherstellungscodes sicher aufbewahrt' }),
    );
    await waitFor(() => expect(next.hasAttribute('disabled')).toBe(false));
    await user.click(next);
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });
});
