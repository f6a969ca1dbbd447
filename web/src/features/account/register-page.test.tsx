import { screen, waitFor, within } from '@testing-library/react';
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

async function fillValid(user: User) {
  await user.type(input('Vorname'), 'Paula');
  await user.type(input('Nachname'), 'Seitz');
  await user.type(input('Email'), 'Paula.Seitz@Example.de');
  await user.type(input('Instagram Name (optional)'), '@paula_s');
  await user.type(input('Passwort'), 'sicher123');
  await user.type(input('Passwort bestätigen'), 'sicher123');
}

describe('/register', () => {
  it('shows each validation message on its field', async () => {
    mockApi();
    const { user } = await renderAt('/register');

    await user.click(await screen.findByRole('button', { name: 'Registrieren' }));

    expect(errorOf(input('Vorname'))).toBe('Vorname ist erforderlich');
    expect(errorOf(input('Nachname'))).toBe('Nachname ist erforderlich');
    expect(errorOf(input('Email'))).toBe('Ungültige Email-Adresse');
    expect(errorOf(input('Instagram Name (optional)'))).toBeNull();
    expect(errorOf(input('Passwort'))).toBe('Passwort muss mindestens 8 Zeichen lang sein');
    expect(input('Vorname').getAttribute('aria-invalid')).toBe('true');
    // Focus moves to the first invalid field.
    expect(document.activeElement).toBe(input('Vorname'));

    await user.type(input('Passwort'), 'sicher123');
    await user.type(input('Passwort bestätigen'), 'anders123');
    expect(errorOf(input('Passwort'))).toBeNull();
    expect(errorOf(input('Passwort bestätigen'))).toBe('Passwörter stimmen nicht überein');
  });

  it('marks the fields and their autocomplete', async () => {
    mockApi();
    await renderAt('/register');

    expect((await findInput('Vorname')).hasAttribute('required')).toBe(true);
    expect(input('Instagram Name (optional)').hasAttribute('required')).toBe(false);
    expect(input('Email').getAttribute('autocomplete')).toBe('email');
    expect(input('Passwort').getAttribute('autocomplete')).toBe('new-password');
    expect(input('Passwort bestätigen').getAttribute('autocomplete')).toBe('new-password');
    expect(screen.getByRole('link', { name: 'Schließen' }).getAttribute('href')).toBe('/');
    expect(screen.getByRole('link', { name: 'Jetzt anmelden' }).getAttribute('href')).toBe('/login');
    expect(document.querySelector('link[rel="canonical"]')?.getAttribute('href')).toBe(
      'http://localhost:3000/register',
    );
  });

  it('points to the privacy notice beside the submit button, in a new tab', async () => {
    mockApi();
    await renderAt('/register');
    await findInput('Vorname');

    const form = screen.getByRole('form', { name: 'Registrierung' });
    const link = within(form).getByRole('link', { name: 'Datenschutzerklärung (öffnet in neuem Tab)' });
    expect(link.getAttribute('href')).toBe('/datenschutz');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.closest('p')?.textContent).toContain('Mit der Registrierung akzeptierst du');
  });

  it('registers, shows the progress label, refreshes the user and goes to /dashboard', async () => {
    const reply = deferred({ status: 201, body: SIGNED_IN_USER });
    const api = mockSigningIn('POST /api/auth/register', reply.promise);
    const { router, queryClient, user } = await renderAt('/register');
    await findInput('Vorname');
    await fillValid(user);

    await user.click(screen.getByRole('button', { name: 'Registrieren' }));

    const pending = await screen.findByRole('button', { name: 'Registriere...' });
    expect(pending.hasAttribute('disabled')).toBe(true);
    expect(api.writes()).toEqual([
      {
        method: 'POST',
        path: '/api/auth/register',
        body: {
          firstName: 'Paula',
          lastName: 'Seitz',
          email: 'paula.seitz@example.de',
          instagramHandle: '@paula_s',
          password: 'sicher123',
        },
      },
    ]);

    reply.release();
    expect(await findToast('Registrierung erfolgreich')).toContain('Willkommen');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(queryClient.getQueryData(['auth', 'user'])).toEqual(SIGNED_IN_USER);
    // The current user was read again after the registration.
    const userReads = api.calls.filter((call) => call.path === '/api/auth/user');
    expect(userReads.length).toBeGreaterThanOrEqual(2);
  });

  it("shows the server's message when registration fails", async () => {
    mockApi({ 'POST /api/auth/register': failWith(409, 'Diese Email-Adresse ist bereits registriert.') });
    const { router, user } = await renderAt('/register');
    await findInput('Vorname');
    await fillValid(user);

    await user.click(screen.getByRole('button', { name: 'Registrieren' }));

    await findToast('Registrierung fehlgeschlagen', 'Diese Email-Adresse ist bereits registriert.');
    expect(router.state.location.pathname).toBe('/register');
    expect(screen.getByRole('button', { name: 'Registrieren' }).hasAttribute('disabled')).toBe(false);
  });

  it('shows the fallback when the server cannot be reached', async () => {
    mockApi({ 'POST /api/auth/register': unreachable });
    const { user } = await renderAt('/register');
    await findInput('Vorname');
    await fillValid(user);

    await user.click(screen.getByRole('button', { name: 'Registrieren' }));

    await findToast('Registrierung fehlgeschlagen', 'Bitte versuche es erneut.');
  });

  it('sends a signed-in visitor to /dashboard', async () => {
    mockSignedIn({ 'GET /api/vehicles': () => ({ body: [] }) });
    const { router } = await renderAt('/register');
    expect(router.state.location.pathname).toBe('/dashboard');
  });
});
