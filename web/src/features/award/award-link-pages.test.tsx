import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { mockApi, renderAt, setupScreenTests } from '../../test/screen-helpers';
import { installDomShims } from '../vehicle-form/test-helpers';

setupScreenTests();

const TOKEN = 'a1b2c3d4e5f6a7b8c9d0';

describe('/publikumsliebling/meine-stimmen', () => {
  it('is one card with one h1 and a section each to download and to delete; nothing is sent on load', async () => {
    const api = mockApi({
      'POST /api/award/my-votes/delete': () =>
        Promise.resolve({ body: { message: 'Deine Adresse und ihre Stimmen sind gelöscht.' } }),
    });
    const { user } = await renderAt(`/publikumsliebling/meine-stimmen?token=${TOKEN}`);

    expect(await screen.findByRole('heading', { level: 1, name: 'Meine Stimmen' })).toBeTruthy();
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    const main = within(screen.getByRole('main'));
    expect(main.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent)).toEqual([
      'Herunterladen',
      'Löschen',
    ]);
    expect(screen.getByRole('region', { name: 'Herunterladen' })).toBeTruthy();
    expect(api.writes()).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Meine Stimmen löschen' }));
    expect((await screen.findByRole('status')).textContent).toBe(
      'Deine Adresse und ihre Stimmen sind gelöscht.',
    );
    expect(api.writes()).toEqual([
      { method: 'POST', path: '/api/award/my-votes/delete', body: { token: TOKEN } },
    ]);
    // The download stays offered beside the outcome of the deletion.
    expect(screen.getByRole('button', { name: 'Meine Stimmen herunterladen' })).toBeTruthy();
  });
});

describe('/publikumsliebling/bestaetigen', () => {
  // Ark's checkbox handles presses with PointerEvent, which jsdom lacks.
  beforeEach(() => installDomShims());
  const waiting = {
    year: 2026,
    confirmed: false,
    votes: [
      { startNumber: 12, car: 'Rote Göttin', pending: true, thisBrowser: true },
      { startNumber: 31, car: 'Fremdes Auto', pending: true, thisBrowser: false },
    ],
  };

  it("lists the waiting votes and counts only this browser's unless others are picked", async () => {
    const api = mockApi({
      'POST /api/award/confirm/pending': () => Promise.resolve({ body: waiting }),
      'POST /api/award/confirm': () =>
        Promise.resolve({
          body: {
            message: 'Deine E-Mail-Adresse ist bestätigt. Deine Stimmen zählen.',
            status: 'confirmed',
            votes: [12],
          },
        }),
    });
    const { user } = await renderAt(`/publikumsliebling/bestaetigen?token=${TOKEN}`);

    expect(await screen.findByRole('heading', { level: 1, name: 'Deine Stimme bestätigen' })).toBeTruthy();
    const own = await screen.findByRole('checkbox', { name: 'Nr. 12 · Rote Göttin' });
    const other = screen.getByRole('checkbox', { name: 'Nr. 31 · Fremdes Auto' });
    expect((own as HTMLInputElement).checked).toBe(true);
    expect((other as HTMLInputElement).checked).toBe(false);
    expect(screen.getByText('In einem anderen Browser abgegeben')).toBeTruthy();
    // Opening the page only reads what waits; nothing is confirmed before the button.
    expect(api.writes()).toEqual([
      { method: 'POST', path: '/api/award/confirm/pending', body: { token: TOKEN } },
    ]);

    await user.click(screen.getByRole('button', { name: 'Adresse bestätigen' }));
    expect((await screen.findByRole('status')).textContent).toBe(
      'Deine E-Mail-Adresse ist bestätigt. Deine Stimmen zählen. Deine Stimmen: Startnummer 12.',
    );
    expect(api.writes().at(-1)).toEqual({
      method: 'POST',
      path: '/api/award/confirm',
      body: { token: TOKEN, startNumbers: [12] },
    });
  });

  it('sends the cars the person picked from another browser', async () => {
    const api = mockApi({
      'POST /api/award/confirm/pending': () =>
        Promise.resolve({
          body: { ...waiting, votes: waiting.votes.map((vote) => ({ ...vote, thisBrowser: false })) },
        }),
      'POST /api/award/confirm': () =>
        Promise.resolve({
          body: {
            message: 'Deine E-Mail-Adresse ist bestätigt. Deine Stimmen zählen.',
            status: 'confirmed',
            votes: [31],
          },
        }),
    });
    const { user } = await renderAt(`/publikumsliebling/bestaetigen?token=${TOKEN}`);
    await user.click(await screen.findByRole('checkbox', { name: 'Nr. 31 · Fremdes Auto' }));
    await user.click(screen.getByRole('button', { name: 'Adresse bestätigen' }));
    await screen.findByRole('status');
    expect(api.writes().at(-1)?.body).toEqual({ token: TOKEN, startNumbers: [31] });
  });

  it('lets no more be ticked than the three counted votes leave room for', async () => {
    const api = mockApi({
      'POST /api/award/confirm/pending': () =>
        Promise.resolve({
          body: {
            year: 2026,
            confirmed: true,
            votes: [
              { startNumber: 12, car: 'Rote Göttin', pending: false, thisBrowser: false },
              { startNumber: 13, car: 'Blauer Blitz', pending: false, thisBrowser: false },
              { startNumber: 31, car: 'Grüner Gecko', pending: true, thisBrowser: true },
              { startNumber: 44, car: 'Gelbe Gefahr', pending: true, thisBrowser: false },
              { startNumber: 45, car: 'Weißer Wal', pending: true, thisBrowser: true },
            ],
          },
        }),
      'POST /api/award/confirm': () =>
        Promise.resolve({
          body: {
            message: 'Deine E-Mail-Adresse ist bestätigt. Deine Stimmen zählen.',
            status: 'confirmed',
            votes: [12, 13, 44],
          },
        }),
    });
    const { user } = await renderAt(`/publikumsliebling/bestaetigen?token=${TOKEN}`);
    const box = (name: string) => screen.getByRole('checkbox', { name }) as HTMLInputElement;
    await screen.findByRole('checkbox', { name: 'Nr. 31 · Grüner Gecko' });
    expect(
      screen.getByText(/Es zählen höchstens drei Stimmen: Du kannst noch ein Auto auswählen\./),
    ).toBeTruthy();
    expect(screen.getByText('Deine Stimmen: Startnummer 12, 13.')).toBeTruthy();
    // One is free: the first of this browser's is ticked, the others wait.
    expect(box('Nr. 31 · Grüner Gecko').checked).toBe(true);
    expect(box('Nr. 45 · Weißer Wal').checked).toBe(false);
    expect(box('Nr. 45 · Weißer Wal').disabled).toBe(true);
    expect(box('Nr. 44 · Gelbe Gefahr').disabled).toBe(true);

    await user.click(box('Nr. 31 · Grüner Gecko'));
    expect(box('Nr. 44 · Gelbe Gefahr').disabled).toBe(false);
    await user.click(box('Nr. 44 · Gelbe Gefahr'));
    expect(box('Nr. 31 · Grüner Gecko').disabled).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Adresse bestätigen' }));
    await screen.findByRole('status');
    expect(api.writes().at(-1)?.body).toEqual({ token: TOKEN, startNumbers: [44] });
  });

  it('says so for a link the server refuses', async () => {
    mockApi({
      'POST /api/award/confirm/pending': () =>
        Promise.resolve({ status: 400, body: { message: 'Dieser Link ist ungültig oder abgelaufen.' } }),
    });
    await renderAt(`/publikumsliebling/bestaetigen?token=${TOKEN}`);
    expect((await screen.findByRole('alert')).textContent).toBe('Dieser Link ist ungültig oder abgelaufen.');
    expect(screen.queryByRole('button', { name: 'Adresse bestätigen' })).toBeNull();
  });
});
