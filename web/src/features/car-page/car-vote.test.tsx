import { AWARD_MESSAGES, AWARD_VOTER_HINT_COOKIE } from '@schlosstreffen/shared';
import type { AwardMe, CarPage, CarPageAward } from '@schlosstreffen/shared/api';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import {
  deferred,
  errorOf,
  failWith,
  findInput,
  mockApi,
  mockSignedIn,
  renderAt,
  setupScreenTests,
  type Handlers,
} from '../../test/screen-helpers';

setupScreenTests();

const OPEN: CarPageAward = {
  state: 'open',
  opensAt: null,
  closesAt: '2026-08-16T16:00:00.000Z',
  maxVotes: 3,
};

const PAGE: CarPage = {
  edition: {
    year: 2026,
    name: 'Schlosstreffen 2026',
    startsAt: '2026-08-14T08:00:00.000Z',
    endsAt: '2026-08-16T16:00:00.000Z',
    place: 'Schloss',
  },
  startNumber: 7,
  brand: 'BMW',
  model: 'E30',
  vehicle: null,
  story: null,
  instagramHandle: null,
  shareImageUrl: null,
  award: OPEN,
};

const me = (over: Partial<AwardMe> = {}): AwardMe => ({
  year: 2026,
  ...OPEN,
  confirmed: false,
  votes: [],
  ...over,
});

const ME_PATH = '/api/award/2026/me';

/** The car's page with the voting as given (open unless said otherwise). */
function carWith(handlers: Handlers, award: CarPageAward | null = OPEN, mock = mockApi) {
  return mock({ 'GET /api/editions/2026/vehicles/7': () => ({ body: { ...PAGE, award } }), ...handlers });
}

/** The readable cookie the api sets beside the voter cookie. */
function withVoterHint() {
  document.cookie = `${AWARD_VOTER_HINT_COOKIE}=1; path=/`;
}
afterEach(() => {
  document.cookie = `${AWARD_VOTER_HINT_COOKIE}=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT`;
});

const box = async () => within(await screen.findByRole('region', { name: 'Publikumsliebling 2026' }));
/** What the box's live region says. */
const liveText = () =>
  screen.getByRole('region', { name: 'Publikumsliebling 2026' }).querySelector('[aria-live="polite"]')
    ?.textContent;
const askedMe = (api: { calls: { path: string }[] }) => api.calls.some((call) => call.path === ME_PATH);

describe("the car page's vote", () => {
  it('says when voting opens, as the page has it, and asks nothing more', async () => {
    const api = carWith(
      { [`GET ${ME_PATH}`]: () => ({ body: me() }) },
      { state: 'not_open', opensAt: '2026-08-15T10:00:00.000Z', closesAt: null, maxVotes: 3 },
    );
    await renderAt('/fahrzeuge/2026/7');
    const region = await box();
    expect(await region.findByText('Die Abstimmung beginnt am 15.08.2026, 12:00 Uhr.')).toBeTruthy();
    expect(region.queryByRole('button', { name: 'Für dieses Auto stimmen' })).toBeNull();
    expect(askedMe(api)).toBe(false);
  });

  it('says voting has not begun, and shows no box for a meeting over without voting', async () => {
    const api = carWith({}, { state: 'not_open', opensAt: null, closesAt: null, maxVotes: 3 });
    await renderAt('/fahrzeuge/2026/7');
    expect(await (await box()).findByText('Die Abstimmung hat noch nicht begonnen.')).toBeTruthy();
    cleanup();

    withVoterHint();
    const none = carWith({ [`GET ${ME_PATH}`]: () => ({ body: me() }) }, null);
    await renderAt('/fahrzeuge/2026/7');
    await screen.findByRole('heading', { name: 'BMW E30', level: 1 });
    expect(screen.queryByRole('region', { name: 'Publikumsliebling 2026' })).toBeNull();
    expect(askedMe(api) || askedMe(none)).toBe(false);
  });

  it("says 'Die Abstimmung ist beendet.' once closed, even to a voter", async () => {
    withVoterHint();
    const api = carWith({}, { ...OPEN, state: 'closed' });
    await renderAt('/fahrzeuge/2026/7');
    expect(await (await box()).findByText('Die Abstimmung ist beendet.')).toBeTruthy();
    expect(askedMe(api)).toBe(false);
  });

  it('offers an anonymous visitor the vote without asking for a state of its own', async () => {
    const api = carWith({});
    await renderAt('/fahrzeuge/2026/7');
    const region = await box();
    expect(region.getByRole('button', { name: 'Für dieses Auto stimmen' })).toBeTruthy();
    expect(
      region.getByText(
        'Gefällt dir dieses Auto? Du kannst für bis zu 3 Autos stimmen; deine Stimme zählt, sobald du deine E-Mail-Adresse bestätigt hast.',
      ),
    ).toBeTruthy();
    // The current user is asked (signed out); the voting state is not.
    await waitFor(() => expect(api.calls.some((call) => call.path === '/api/auth/user')).toBe(true));
    expect(askedMe(api)).toBe(false);
  });

  it("reads a voter's own votes after the page, with the cookie's hint", async () => {
    withVoterHint();
    const reply = deferred({ body: me({ confirmed: true, votes: [7] }) });
    const api = carWith({ [`GET ${ME_PATH}`]: () => reply.promise });
    await renderAt('/fahrzeuge/2026/7');
    const region = await box();
    expect(region.getByRole('status').textContent).toContain('Abstimmung wird geladen...');
    reply.release();
    expect(await region.findByText('Deine Stimme für dieses Auto')).toBeTruthy();
    expect(region.getByText('1 von 3 Stimmen vergeben')).toBeTruthy();
    expect(askedMe(api)).toBe(true);
  });

  it('reads a signed-in visitor’s own votes', async () => {
    const api = carWith(
      { [`GET ${ME_PATH}`]: () => ({ body: me({ confirmed: true, votes: [1] }) }) },
      OPEN,
      mockSignedIn,
    );
    await renderAt('/fahrzeuge/2026/7');
    const region = await box();
    expect(await region.findByText('1 von 3 Stimmen vergeben')).toBeTruthy();
    expect(askedMe(api)).toBe(true);
  });

  it('offers a retry when the state cannot be read', async () => {
    withVoterHint();
    let calls = 0;
    carWith({
      [`GET ${ME_PATH}`]: () => {
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
    expect(askedMe(api)).toBe(false);
  });

  it("offers the next car's box the address this tab gave while its votes wait", async () => {
    carWith({
      'GET /api/editions/2026/vehicles/8': () => ({ body: { ...PAGE, startNumber: 8, model: 'E36' } }),
      'POST /api/award/2026/votes': () => ({
        status: 202,
        body: { message: AWARD_MESSAGES.pending, status: 'pending', votes: [] },
      }),
    });
    const { user, router } = await renderAt('/fahrzeuge/2026/7');
    const first = await box();
    await user.click(await first.findByRole('button', { name: 'Für dieses Auto stimmen' }));
    await user.type(await findInput('E-Mail-Adresse'), 'lena.weber@example.de');
    await user.click(first.getByRole('button', { name: 'Für dieses Auto stimmen' }));
    await first.findByText(/Wir haben dir eine E-Mail/);

    await router.navigate({
      to: '/fahrzeuge/$year/$startNumber',
      params: { year: '2026', startNumber: '8' },
    });
    const next = await box();
    await user.click(await next.findByRole('button', { name: 'Für dieses Auto stimmen' }));
    expect(((await findInput('E-Mail-Adresse')) as HTMLInputElement).value).toBe('lena.weber@example.de');
  });

  it('shows a vote counted for a browser that asked for nothing (a voter cookie without its hint)', async () => {
    const api = carWith({
      'POST /api/award/2026/votes': () => ({
        status: 201,
        body: { message: AWARD_MESSAGES.counted, status: 'counted', votes: [2, 7] },
      }),
    });
    const { user } = await renderAt('/fahrzeuge/2026/7');
    const region = await box();
    await user.click(await region.findByRole('button', { name: 'Für dieses Auto stimmen' }));
    await user.type(await findInput('E-Mail-Adresse'), 'lena.weber@example.de');
    await user.click(region.getByRole('button', { name: 'Für dieses Auto stimmen' }));
    expect(await region.findByText('Deine Stimme für dieses Auto')).toBeTruthy();
    expect(region.getByText('2 von 3 Stimmen vergeben')).toBeTruthy();
    expect(liveText()).toBe(AWARD_MESSAGES.counted);
    expect(askedMe(api)).toBe(false);
  });

  it('reads the state after a refusal when it asked for nothing before, and shows the voting closed', async () => {
    const api = carWith({
      'POST /api/award/2026/votes': failWith(409, AWARD_MESSAGES.closed),
      [`GET ${ME_PATH}`]: () => ({ body: me({ state: 'closed' }) }),
    });
    const { user } = await renderAt('/fahrzeuge/2026/7');
    const region = await box();
    await user.click(await region.findByRole('button', { name: 'Für dieses Auto stimmen' }));
    await user.type(await findInput('E-Mail-Adresse'), 'lena.weber@example.de');
    await user.click(region.getByRole('button', { name: 'Für dieses Auto stimmen' }));
    expect(await region.findByText('Die Abstimmung ist beendet.')).toBeTruthy();
    expect(askedMe(api)).toBe(true);
  });

  it('casts a confirmed visitor’s vote at once, counts it and takes it back', async () => {
    withVoterHint();
    let votes = [3];
    const api = carWith({
      [`GET ${ME_PATH}`]: () => ({ body: me({ confirmed: true, votes }) }),
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
    withVoterHint();
    carWith({
      [`GET ${ME_PATH}`]: () => ({ body: me({ confirmed: true, votes: [1, 2, 3] }) }),
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
