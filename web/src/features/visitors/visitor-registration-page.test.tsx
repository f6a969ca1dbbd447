import { fireEvent, screen } from '@testing-library/react';
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
  type User,
} from '../../test/screen-helpers';

setupScreenTests();

const CONFIRM_PENDING =
  'Bitte bestätige deine Vormerkung über den Link in unserer E-Mail, dann halten wir dich über das Event auf dem Laufenden.';

async function fillValid(user: User) {
  await user.type(await findInput('Vorname'), 'Max');
  await user.type(input('Nachname'), 'Mustermann');
  await user.type(input('E-Mail'), 'Max@Example.de');
}

describe('/visitor-registration', () => {
  it('shows the card with its fields, the note and a close button to /', async () => {
    mockApi();
    await renderAt('/visitor-registration');

    expect(await screen.findByRole('heading', { level: 1, name: 'Besuchervoranmeldung' })).toBeTruthy();
    expect(input('Vorname').hasAttribute('required')).toBe(true);
    expect(input('Nachname').hasAttribute('required')).toBe(true);
    expect(input('E-Mail').getAttribute('type')).toBe('email');
    expect(input('E-Mail').getAttribute('autocomplete')).toBe('email');
    expect(input('Telefon (optional)').getAttribute('type')).toBe('tel');
    expect(input('Telefon (optional)').hasAttribute('required')).toBe(false);
    expect(
      screen.getByText('* Pflichtfelder. Deine Daten werden nur für Event-Updates verwendet.'),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Schließen' }).getAttribute('href')).toBe('/');
    expect(document.querySelector('link[rel="canonical"]')?.getAttribute('href')).toMatch(
      /\/visitor-registration$/,
    );
  });

  it('says what the phone number is for and links to the privacy notice', async () => {
    mockApi();
    await renderAt('/visitor-registration');

    const phone = await findInput('Telefon (optional)');
    const hint = document.getElementById(phone.getAttribute('aria-describedby') ?? '');
    expect(hint?.textContent).toBe('Nur für Rückfragen des Veranstalters zu deiner Voranmeldung.');
    const link = screen.getByRole('link', { name: 'Datenschutzerklärung (öffnet in neuem Tab)' });
    expect(link.getAttribute('href')).toBe('/datenschutz');
    expect(link.getAttribute('target')).toBe('_blank');
  });

  it('shows the validation messages on their fields', async () => {
    mockApi();
    const { user } = await renderAt('/visitor-registration');

    await user.type(await findInput('Vorname'), 'M');
    await user.type(input('E-Mail'), 'max@');
    await user.click(screen.getByRole('button', { name: 'Jetzt vormerken' }));

    expect(errorOf(input('Vorname'))).toBe('Vorname muss mindestens 2 Zeichen lang sein');
    expect(errorOf(input('Nachname'))).toBe('Nachname muss mindestens 2 Zeichen lang sein');
    expect(errorOf(input('E-Mail'))).toBe('Ungültige E-Mail-Adresse');
    expect(errorOf(input('Telefon (optional)'))).toBeNull();
  });

  it("registers with 'Wird vorgemerkt...', thanks, and resets for another person", async () => {
    const reply = deferred({
      status: 201,
      body: { message: 'Erfolgreich vorgemerkt!', description: CONFIRM_PENDING },
    });
    const api = mockApi({ 'POST /api/visitor-registrations': () => reply.promise });
    const { user } = await renderAt('/visitor-registration');

    await fillValid(user);
    await user.type(input('Telefon (optional)'), '+49 351 123456');
    await user.click(screen.getByRole('button', { name: 'Jetzt vormerken' }));

    expect((await screen.findByRole('button', { name: 'Wird vorgemerkt...' })).hasAttribute('disabled')).toBe(
      true,
    );
    expect(api.writes()).toEqual([
      {
        method: 'POST',
        path: '/api/visitor-registrations',
        body: {
          firstName: 'Max',
          lastName: 'Mustermann',
          email: 'max@example.de',
          phone: '+49 351 123456',
          nextEdition: false,
        },
      },
    ]);

    reply.release();
    expect(await screen.findByRole('heading', { name: 'Vielen Dank!' })).toBeTruthy();
    expect(screen.getByText(/^Du bist jetzt vorgemerkt/)).toBeTruthy();
    expect(screen.getByText(CONFIRM_PENDING)).toBeTruthy();
    expect(await findToast('Erfolgreich vorgemerkt!')).toContain(
      'Wir halten dich über das Event auf dem Laufenden.',
    );

    await user.click(screen.getByRole('button', { name: 'Weitere Person vormerken' }));

    expect(input('Vorname').value).toBe('');
    expect(input('E-Mail').value).toBe('');
    expect(input('Telefon (optional)').value).toBe('');
    expect(errorOf(input('Vorname'))).toBeNull();
    expect(screen.getByRole('button', { name: 'Jetzt vormerken' }).hasAttribute('disabled')).toBe(false);
  });

  it('leaves the optional phone out when it is empty; sends the wish to hear about the next edition when ticked', async () => {
    const api = mockApi({ 'POST /api/visitor-registrations': () => ({ status: 201, body: {} }) });
    const { user } = await renderAt('/visitor-registration');

    await fillValid(user);
    const wish = screen.getByRole('checkbox', {
      name: /Informiert mich per E-Mail auch über das nächste Schlosstreffen/,
    });
    expect((wish as HTMLInputElement).checked).toBe(false);
    // Ticked without moving the focus: jsdom has no PointerEvent for the box's blur handling.
    fireEvent.click(wish);
    expect((wish as HTMLInputElement).checked).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Jetzt vormerken' }));

    expect(await screen.findByRole('heading', { name: 'Vielen Dank!' })).toBeTruthy();
    expect(api.writes()[0]?.body).toEqual({
      firstName: 'Max',
      lastName: 'Mustermann',
      email: 'max@example.de',
      nextEdition: true,
    });
  });

  it("shows 'Fehler' with the server's message", async () => {
    mockApi({
      'POST /api/visitor-registrations': failWith(
        429,
        'Zu viele Versuche. Bitte versuche es in 2 Minuten erneut.',
      ),
    });
    const { user } = await renderAt('/visitor-registration');

    await fillValid(user);
    await user.click(screen.getByRole('button', { name: 'Jetzt vormerken' }));

    await findToast('Fehler', 'Zu viele Versuche. Bitte versuche es in 2 Minuten erneut.');
    expect(screen.queryByRole('heading', { name: 'Vielen Dank!' })).toBeNull();
    expect(input('Vorname').value).toBe('Max');
  });

  it("falls back to 'Registrierung fehlgeschlagen. Bitte versuche es erneut.'", async () => {
    mockApi({ 'POST /api/visitor-registrations': unreachable });
    const { user } = await renderAt('/visitor-registration');

    await fillValid(user);
    await user.click(screen.getByRole('button', { name: 'Jetzt vormerken' }));

    await findToast('Fehler', 'Registrierung fehlgeschlagen. Bitte versuche es erneut.');
  });

  it.each([
    ['bestaetigt=1', 'Vormerkung bestätigt'],
    ['abgemeldet=1', 'Abgemeldet'],
    ['link=ungueltig', 'Link ungültig'],
  ])('tells the outcome of a mail link (?%s)', async (query, title) => {
    mockApi();
    await renderAt(`/visitor-registration?${query}`);

    expect((await screen.findByRole('status')).textContent).toContain(title);
  });
});
