import { AWARD_MESSAGES } from '@schlosstreffen/shared';
import type { AwardMe, CarPage } from '@schlosstreffen/shared/api';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  deferred,
  errorOf,
  failWith,
  findInput,
  mockApi,
  renderAt,
  setupScreenTests,
  type Handlers,
} from '../../test/screen-helpers';

setupScreenTests();

const PAGE: CarPage = {
  edition: {
    year: 2026,
    name: 'Schlosstreffen 2026',
    startsAt: '2026-08-14T08:00:00.000Z',
    place: 'Schloss',
  },
  startNumber: 7,
  brand: 'BMW',
  model: 'E30',
  vehicle: null,
  story: null,
  instagramHandle: null,
  shareImageUrl: null,
};

const me = (over: Partial<AwardMe> = {}): AwardMe => ({
  year: 2026,
  state: 'open',
  opensAt: null,
  closesAt: null,
  confirmed: false,
  votes: [],
  maxVotes: 3,
  ...over,
});

function carWith(handlers: Handlers) {
  return mockApi({ 'GET /api/editions/2026/vehicles/7': () => ({ body: PAGE }), ...handlers });
}

const box = async () => within(await screen.findByRole('region', { name: 'Publikumsliebling 2026' }));
/** What the box's live region says. */
const liveText = () =>
  screen.getByRole('region', { name: 'Publikumsliebling 2026' }).querySelector('[aria-live="polite"]')
    ?.textContent;

describe("the car page's vote", () => {
  it('loads the visitor state after the page and says when voting opens', async () => {
    const reply = deferred({ body: me({ state: 'not_open', opensAt: '2026-08-15T10:00:00.000Z' }) });
    carWith({ 'GET /api/award/2026/me': () => reply.promise });
    await renderAt('/fahrzeuge/2026/7');
    const region = await box();
    expect(region.getByRole('status').textContent).toContain('Abstimmung wird geladen...');
    reply.release();
    expect(await region.findByText('Die Abstimmung beginnt am 15.08.2026, 12:00 Uhr.')).toBeTruthy();
    expect(region.queryByRole('button', { name: 'Für dieses Auto stimmen' })).toBeNull();
  });

  it('says voting has not begun before a meeting, and shows no box for a meeting long past without one', async () => {
    carWith({
      'GET /api/editions/2026/vehicles/7': () => ({
        body: { ...PAGE, edition: { ...PAGE.edition, startsAt: '2999-08-14T08:00:00.000Z' } },
      }),
      'GET /api/award/2026/me': () => ({ body: me({ state: 'not_open' }) }),
    });
    await renderAt('/fahrzeuge/2026/7');
    expect(await (await box()).findByText('Die Abstimmung hat noch nicht begonnen.')).toBeTruthy();
    cleanup();

    const api = carWith({
      'GET /api/editions/2026/vehicles/7': () => ({
        body: { ...PAGE, edition: { ...PAGE.edition, startsAt: '2020-08-14T08:00:00.000Z' } },
      }),
      'GET /api/award/2026/me': () => ({ body: me({ state: 'not_open' }) }),
    });
    await renderAt('/fahrzeuge/2026/7');
    await screen.findByRole('heading', { name: 'BMW E30', level: 1 });
    await waitFor(() => expect(api.calls.some((call) => call.path === '/api/award/2026/me')).toBe(true));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Publikumsliebling 2026' })).toBeNull());
  });

  it("says 'Die Abstimmung ist beendet.' once closed", async () => {
    carWith({ 'GET /api/award/2026/me': () => ({ body: me({ state: 'closed' }) }) });
    await renderAt('/fahrzeuge/2026/7');
    expect(await (await box()).findByText('Die Abstimmung ist beendet.')).toBeTruthy();
  });

  it('offers a retry when the state cannot be read', async () => {
    let calls = 0;
    carWith({
      'GET /api/award/2026/me': () => {
        calls += 1;
        return calls === 1 ? { status: 500, body: { message: 'Interner Fehler.' } } : { body: me() };
      },
    });
    const { user } = await renderAt('/fahrzeuge/2026/7');
    const region = await box();
    await user.click(await region.findByRole('button', { name: 'Erneut versuchen' }));
    expect(await region.findByRole('button', { name: 'Für dieses Auto stimmen' })).toBeTruthy();
  });

  it('asks an unconfirmed visitor for the address, checks it, and says the mail went out', async () => {
    const api = carWith({
      'GET /api/award/2026/me': () => ({ body: me() }),
      'POST /api/award/2026/votes': () => ({
        status: 202,
        body: { message: AWARD_MESSAGES.pending, status: 'pending', votes: [] },
      }),
    });
    const { user } = await renderAt('/fahrzeuge/2026/7');
    const region = await box();
    await user.click(await region.findByRole('button', { name: 'Für dieses Auto stimmen' }));

    await user.type(await findInput('E-Mail-Adresse'), 'lena@');
    await user.click(region.getByRole('button', { name: 'Für dieses Auto stimmen' }));
    expect(errorOf(await findInput('E-Mail-Adresse'))).toBe(AWARD_MESSAGES.email);
    expect(api.writes()).toEqual([]);

    await user.clear(await findInput('E-Mail-Adresse'));
    await user.type(await findInput('E-Mail-Adresse'), ' Lena.Weber@Example.de ');
    await user.click(region.getByRole('button', { name: 'Für dieses Auto stimmen' }));

    expect(
      await region.findByText(/Wir haben dir eine E-Mail mit einem Bestätigungslink geschickt/),
    ).toBeTruthy();
    expect(liveText()).toBe(AWARD_MESSAGES.pending);
    expect(api.writes()).toEqual([
      {
        method: 'POST',
        path: '/api/award/2026/votes',
        body: { startNumber: 7, email: 'lena.weber@example.de' },
      },
    ]);
    expect(region.queryByLabelText(/E-Mail-Adresse/)).toBeNull();
  });

  it('casts a confirmed visitor’s vote at once, counts it and takes it back', async () => {
    let votes = [3];
    const api = carWith({
      'GET /api/award/2026/me': () => ({ body: me({ confirmed: true, votes }) }),
      'POST /api/award/2026/votes': () => {
        votes = [3, 7];
        return { status: 201, body: { message: AWARD_MESSAGES.counted, status: 'counted', votes } };
      },
      'DELETE /api/award/2026/votes/7': () => {
        votes = [3];
        return { body: { message: AWARD_MESSAGES.withdrawn, status: 'withdrawn', votes } };
      },
    });
    const { user } = await renderAt('/fahrzeuge/2026/7');
    const region = await box();
    expect(await region.findByText('1 von 3 Stimmen vergeben')).toBeTruthy();

    await user.click(region.getByRole('button', { name: 'Für dieses Auto stimmen' }));
    expect(await region.findByText('Deine Stimme für dieses Auto')).toBeTruthy();
    expect(region.getByText('2 von 3 Stimmen vergeben')).toBeTruthy();
    expect(liveText()).toBe(AWARD_MESSAGES.counted);

    await user.click(region.getByRole('button', { name: 'Stimme zurücknehmen' }));
    expect(await region.findByRole('button', { name: 'Für dieses Auto stimmen' })).toBeTruthy();
    expect(region.getByText('1 von 3 Stimmen vergeben')).toBeTruthy();
    expect(liveText()).toBe(AWARD_MESSAGES.withdrawn);
    expect(api.writes()).toEqual([
      { method: 'POST', path: '/api/award/2026/votes', body: { startNumber: 7 } },
      { method: 'DELETE', path: '/api/award/2026/votes/7', body: undefined },
    ]);
  });

  it("shows the server's refusal of a fourth car", async () => {
    carWith({
      'GET /api/award/2026/me': () => ({ body: me({ confirmed: true, votes: [1, 2, 3] }) }),
      'POST /api/award/2026/votes': failWith(409, AWARD_MESSAGES.tooMany),
    });
    const { user } = await renderAt('/fahrzeuge/2026/7');
    const region = await box();
    expect(await region.findByText('3 von 3 Stimmen vergeben')).toBeTruthy();
    await user.click(region.getByRole('button', { name: 'Für dieses Auto stimmen' }));
    await region.findByText(AWARD_MESSAGES.tooMany);
    expect(liveText()).toBe(AWARD_MESSAGES.tooMany);
  });
});
