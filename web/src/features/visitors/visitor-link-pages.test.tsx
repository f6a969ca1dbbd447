import {
  PRIVACY_MESSAGES,
  VISITOR_NEXT_EDITION_CONSENT,
  VISITOR_NEXT_EDITION_CONSENTED,
} from '@schlosstreffen/shared';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  deferred,
  failWith,
  mockApi,
  renderAt,
  setupScreenTests,
  unreachable,
} from '../../test/screen-helpers';

setupScreenTests();

const TOKEN = 'a1b2c3d4e5f6a7b8c9d0';
const UNSUBSCRIBED = 'Du bist abgemeldet und erhältst keine E-Mails mehr zum Schlosstreffen.';

describe('/besucher/bestaetigen', () => {
  it('sends nothing on load; the button posts the token and shows the server message', async () => {
    const reply = deferred({ body: { message: PRIVACY_MESSAGES.visitorConfirmed } });
    const api = mockApi({ 'POST /api/visitor-registrations/confirm': () => reply.promise });
    const { user } = await renderAt(`/besucher/bestaetigen?token=${TOKEN}`);

    expect(await screen.findByRole('heading', { level: 1, name: 'Vormerkung bestätigen' })).toBeTruthy();
    expect(document.title).toBe('Vormerkung bestätigen – Schlosstreffen');
    expect(api.writes()).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Vormerkung bestätigen' }));
    expect((await screen.findByRole('button', { name: 'Wird bestätigt...' })).hasAttribute('disabled')).toBe(
      true,
    );
    expect(api.writes()).toEqual([
      { method: 'POST', path: '/api/visitor-registrations/confirm', body: { token: TOKEN } },
    ]);

    reply.release();
    expect((await screen.findByRole('status')).textContent).toBe(PRIVACY_MESSAGES.visitorConfirmed);
    expect(screen.queryByRole('button', { name: 'Vormerkung bestätigen' })).toBeNull();
  });

  it("says 'Der Link ist ungültig.' without a token and offers no button", async () => {
    const api = mockApi();
    await renderAt('/besucher/bestaetigen');

    expect((await screen.findByRole('alert')).textContent).toBe('Der Link ist ungültig.');
    expect(screen.queryByRole('button', { name: 'Vormerkung bestätigen' })).toBeNull();
    expect(api.writes()).toEqual([]);
  });

  it('shows the server message for a rejected token', async () => {
    mockApi({ 'POST /api/visitor-registrations/confirm': failWith(400, 'Der Link ist ungültig.') });
    const { user } = await renderAt(`/besucher/bestaetigen?token=${TOKEN}`);

    await user.click(await screen.findByRole('button', { name: 'Vormerkung bestätigen' }));

    expect((await screen.findByRole('alert')).textContent).toBe('Der Link ist ungültig.');
    expect(screen.queryByRole('button', { name: 'Vormerkung bestätigen' })).toBeNull();
  });

  it('keeps the button for another try when the server cannot be reached', async () => {
    mockApi({ 'POST /api/visitor-registrations/confirm': unreachable });
    const { user } = await renderAt(`/besucher/bestaetigen?token=${TOKEN}`);

    await user.click(await screen.findByRole('button', { name: 'Vormerkung bestätigen' }));

    expect((await screen.findByRole('alert')).textContent).toBe(
      'Das hat nicht geklappt. Bitte versuche es erneut.',
    );
    expect(screen.getByRole('button', { name: 'Vormerkung bestätigen' })).toBeTruthy();
  });
});

describe('/besucher/abmelden', () => {
  it('explains that the registration is deleted, sends nothing on load, unsubscribes on the button', async () => {
    const api = mockApi({
      'POST /api/visitor-registrations/unsubscribe': () => ({ body: { message: UNSUBSCRIBED } }),
    });
    const { user } = await renderAt(`/besucher/abmelden?token=${TOKEN}`);

    expect(await screen.findByRole('heading', { level: 1, name: 'Von Event-Updates abmelden' })).toBeTruthy();
    expect(screen.getByRole('main').textContent).toContain('löschen deine Besucher-Voranmeldung');
    expect(api.writes()).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Abmelden' }));

    expect((await screen.findByRole('status')).textContent).toBe(UNSUBSCRIBED);
    expect(api.writes()).toEqual([
      { method: 'POST', path: '/api/visitor-registrations/unsubscribe', body: { token: TOKEN } },
    ]);
  });

  it("says 'Der Link ist ungültig.' for an empty token", async () => {
    const api = mockApi();
    await renderAt('/besucher/abmelden?token=');

    expect((await screen.findByRole('alert')).textContent).toBe('Der Link ist ungültig.');
    expect(screen.queryByRole('button', { name: 'Abmelden' })).toBeNull();
    expect(api.writes()).toEqual([]);
  });
});

describe('/besucher/naechstes-treffen', () => {
  it('shows the consent’s wording, sends nothing on load, gives it on the button', async () => {
    const api = mockApi({
      'POST /api/visitor-registrations/next-edition': () => ({
        body: { message: VISITOR_NEXT_EDITION_CONSENTED },
      }),
    });
    const { user } = await renderAt(`/besucher/naechstes-treffen?token=${TOKEN}`);

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Über das nächste Treffen informieren' }),
    ).toBeTruthy();
    expect(document.title).toBe('Über das nächste Treffen informieren – Schlosstreffen');
    expect(screen.getByRole('main').textContent).toContain(VISITOR_NEXT_EDITION_CONSENT.text);
    expect(api.writes()).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Einwilligen' }));

    expect((await screen.findByRole('status')).textContent).toBe(VISITOR_NEXT_EDITION_CONSENTED);
    expect(api.writes()).toEqual([
      { method: 'POST', path: '/api/visitor-registrations/next-edition', body: { token: TOKEN } },
    ]);
  });

  it('shows the server message for a rejected token and offers no button', async () => {
    mockApi({ 'POST /api/visitor-registrations/next-edition': failWith(400, 'Der Link ist ungültig.') });
    const { user } = await renderAt(`/besucher/naechstes-treffen?token=${TOKEN}`);

    await user.click(await screen.findByRole('button', { name: 'Einwilligen' }));

    expect((await screen.findByRole('alert')).textContent).toBe('Der Link ist ungültig.');
    expect(screen.queryByRole('button', { name: 'Einwilligen' })).toBeNull();
  });
});
