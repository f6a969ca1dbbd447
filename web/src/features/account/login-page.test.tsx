import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
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
  SIGNED_IN_USER,
} from './test-helpers';

setupScreenTests();

/** A server that signs in on POST /api/auth/login; `reply` may hold the answer back. */
function loginServer(reply?: Promise<{ status?: number; body?: unknown }>) {
  let signedIn = false;
  return mockApi({
    'POST /api/auth/login': () => {
      signedIn = true;
      return reply ?? { body: SIGNED_IN_USER };
    },
    'GET /api/auth/user': () => (signedIn ? { body: SIGNED_IN_USER } : { status: 401 }),
    'GET /api/vehicles': () => ({ body: [] }),
  });
}

async function signIn(user: ReturnType<typeof userEvent.setup>) {
  await user.type(await findInput('Email'), 'lena.weber@example.de');
  await user.type(input('Passwort'), 'schlosstreffen');
  await user.click(screen.getByRole('button', { name: 'Anmelden' }));
}

describe('/login', () => {
  it('shows the validation messages on their fields', async () => {
    mockApi();
    await renderAt('/login');
    const user = userEvent.setup();

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
    const api = loginServer(reply.promise);
    const { router, queryClient } = await renderAt('/login');
    const user = userEvent.setup();

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
    loginServer();
    const { router } = await renderAt('/login?redirect=%2Fprofile');

    await signIn(userEvent.setup());

    await waitFor(() => expect(router.state.location.pathname).toBe('/profile'));
    expect(await screen.findByRole('heading', { name: 'Mein Profil' })).toBeTruthy();
  });

  it('ignores a redirect target on another origin', async () => {
    loginServer();
    const { router } = await renderAt('/login?redirect=%2F%2Fevil.example');

    await signIn(userEvent.setup());

    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });

  it("shows the server's message when the login fails", async () => {
    mockApi({
      'POST /api/auth/login': () => ({ status: 401, body: { message: 'Falsche Email oder Passwort.' } }),
    });
    const { router } = await renderAt('/login');

    await signIn(userEvent.setup());

    expect(await findToast('Login fehlgeschlagen')).toContain('Falsche Email oder Passwort.');
    expect(router.state.location.pathname).toBe('/login');
    expect(screen.getByRole('button', { name: 'Anmelden' }).hasAttribute('disabled')).toBe(false);
  });

  it('shows the fallback when the server cannot be reached', async () => {
    mockApi({ 'POST /api/auth/login': () => Promise.reject(new TypeError('Failed to fetch')) });
    await renderAt('/login');

    await signIn(userEvent.setup());

    await findToast('Login fehlgeschlagen', 'Falsche Email oder Passwort.');
  });

  it('sends a signed-in user on to the redirect target', async () => {
    mockApi({
      'GET /api/auth/user': () => ({ body: SIGNED_IN_USER }),
      'GET /api/vehicles': () => ({ body: [] }),
    });
    const { router } = await renderAt('/login?redirect=%2Fprofile');
    expect(router.state.location.pathname).toBe('/profile');
  });
});
