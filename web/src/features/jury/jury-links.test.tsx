import { JURY_MESSAGES } from '@schlosstreffen/shared';
import type { CarPage } from '@schlosstreffen/shared/api';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { failWith, mockApi, renderAt, setupScreenTests, SIGNED_IN_USER } from '../../test/screen-helpers';

setupScreenTests();

const JUDGE = { ...SIGNED_IN_USER, judge: true };
const TOKEN = 'a'.repeat(43);

const PAGE: CarPage = {
  edition: {
    year: 2026,
    name: 'Schlosstreffen 2026',
    startsAt: '2026-06-20T08:00:00.000Z',
    endsAt: '2026-06-21T16:00:00.000Z',
    place: 'Schloss',
  },
  startNumber: 7,
  brand: 'BMW',
  model: 'E30',
  vehicle: null,
  story: null,
  instagramHandle: null,
  shareImageUrl: null,
  award: null,
};

describe('the ways into the jury', () => {
  it('accepts a mailed invitation by its button, for the account signed in', async () => {
    let judge = false;
    const { writes } = mockApi({
      'GET /api/auth/user': () => ({ body: { ...SIGNED_IN_USER, judge } }),
      'POST /api/jury/accept': () => {
        judge = true;
        return { body: { message: JURY_MESSAGES.inviteAccepted('Schlosstreffen 2026') } };
      },
    });
    const { user } = await renderAt(`/jury/einladung?token=${TOKEN}`);
    expect(await screen.findByRole('heading', { name: 'Einladung in die Jury' })).toBeTruthy();
    // Opening the page changes nothing: mail scanners open links too.
    expect(writes()).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Einladung annehmen' }));
    expect((await screen.findByRole('status')).textContent).toBe(
      'Sie sind jetzt Jurymitglied bei Schlosstreffen 2026.',
    );
    expect(writes()).toEqual([{ method: 'POST', path: '/api/jury/accept', body: { token: TOKEN } }]);
    expect(screen.getByRole('link', { name: 'Zur Jury' }).getAttribute('href')).toBe('/jury');
    // The navigation now offers the jury.
    const nav = screen.getByRole('navigation', { name: 'Hauptnavigation' });
    await waitFor(() =>
      expect(within(nav).getByRole('link', { name: 'Jury' }).getAttribute('href')).toBe('/jury'),
    );
  });

  it('shows the server’s refusal of an invalid invitation', async () => {
    mockApi({
      'GET /api/auth/user': () => ({ body: SIGNED_IN_USER }),
      'POST /api/jury/accept': failWith(400, JURY_MESSAGES.inviteInvalid),
    });
    const { user } = await renderAt(`/jury/einladung?token=${TOKEN}`);
    await user.click(await screen.findByRole('button', { name: 'Einladung annehmen' }));
    expect((await screen.findByRole('alert')).textContent).toBe(JURY_MESSAGES.inviteInvalid);
  });

  it('sends a signed-out visitor to the login first, and back to the invitation', async () => {
    mockApi();
    const { router } = await renderAt(`/jury/einladung?token=${TOKEN}`);
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.location.search).toEqual({ redirect: `/jury/einladung?token=${TOKEN}` });
  });

  it('offers a judge “Bewerten” on a car page of the current edition, nobody else', async () => {
    mockApi({
      'GET /api/auth/user': () => ({ body: JUDGE }),
      'GET /api/editions/2026/vehicles/7': () => ({ body: PAGE }),
    });
    await renderAt('/fahrzeuge/2026/7');
    const link = await screen.findByRole('link', { name: 'Bewerten' });
    expect(link.getAttribute('href')).toBe('/jury/7');
    expect(
      within(screen.getByRole('navigation', { name: 'Hauptnavigation' })).getByRole('link', { name: 'Jury' }),
    ).toBeTruthy();
  });

  it('offers no “Bewerten” to an account that judges nothing', async () => {
    mockApi({
      'GET /api/auth/user': () => ({ body: SIGNED_IN_USER }),
      'GET /api/editions/2026/vehicles/7': () => ({ body: PAGE }),
    });
    await renderAt('/fahrzeuge/2026/7');
    expect(await screen.findByRole('heading', { level: 1, name: 'BMW E30' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Bewerten' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Jury' })).toBeNull();
  });
});
