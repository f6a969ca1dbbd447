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
