import 'fake-indexeddb/auto';
import { JURY_MESSAGES } from '@schlosstreffen/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import {
  failWith,
  mockApi,
  renderAt,
  setupScreenTests,
  SIGNED_IN_USER,
  unreachable,
} from '../../test/screen-helpers';
import { CLASS_A, juryView, syncAnswer } from './jury-fixtures';
import { startNumberFromCode } from './jury-find-car';
import { clearJury, rememberJuryJudge, storeJuryView } from './jury-store';

setupScreenTests();

const JUDGE = { ...SIGNED_IN_USER, judge: true };

afterEach(async () => {
  await clearJury();
});

function api(view = juryView()) {
  return mockApi({
    'GET /api/auth/user': () => ({ body: JUDGE }),
    'GET /api/jury': () => ({ body: view }),
    'POST /api/jury/sync': (body) => ({ body: syncAnswer(body) }),
  });
}

const classRegion = (name: string) => screen.findByRole('region', { name });
const carRows = (region: HTMLElement) =>
  within(region)
    .getAllByTestId('jury-car')
    .map((row) => row.textContent?.replace(/\s+/g, ' ').trim());

describe('/jury', () => {
  it('lists the classes with their cars in walking order and what is still open', async () => {
    api(
      juryView({
        scores: [
          {
            classId: CLASS_A,
            startNumber: 7,
            criterion: 'sauberkeit',
            value: 6,
            enteredAt: '2026-06-20T09:00:00.000Z',
          },
          {
            classId: CLASS_A,
            startNumber: 7,
            criterion: 'umbau',
            value: 8,
            enteredAt: '2026-06-20T09:00:00.000Z',
          },
          {
            classId: CLASS_A,
            startNumber: 12,
            criterion: 'umbau',
            value: 5,
            enteredAt: '2026-06-20T09:00:00.000Z',
          },
        ],
      }),
    );
    await renderAt('/jury');
    expect(await screen.findByRole('heading', { level: 1, name: 'Jury' })).toBeTruthy();
    expect(document.title).toBe('Jury – Schlosstreffen');

    const umbau = await classRegion('Bester Umbau');
    expect(carRows(umbau)).toEqual([
      '12Startnummer 12: RotkäppchenOffen: SauberkeitZone A',
      '7Startnummer 7: Volkswagen Golf 7Bewertet · 22 von 30 PunktenZone B',
      '31Startnummer 31: Volkswagen Golf 31Eigenes AutoZone B',
      '40Startnummer 40: Volkswagen Golf 40BefangenZone C',
    ]);
    expect(within(umbau).getByTestId('jury-class-summary').textContent).toBe(
      '1 von 2 Autos bewertet (2 ausgenommen)',
    );
    // Only the head judge (or an admin) closes a class.
    expect(within(umbau).queryByRole('link', { name: 'Fortschritt und Abschluss' })).toBeNull();
    const lack = await classRegion('Beste Lackierung');
    expect(within(lack).getByText('Jury-Leitung')).toBeTruthy();
    expect(
      within(lack).getByRole('link', { name: 'Fortschritt und Abschluss' }).getAttribute('href'),
    ).toMatch(/^\/jury\/klasse\/2222/);
    expect(within(lack).getByTestId('jury-class-summary').textContent).toBe('0 von 1 Auto bewertet');

    const link = within(umbau).getAllByRole('link')[0]!;
    expect(link.getAttribute('href')).toBe(`/jury/12?klasse=${CLASS_A}`);

    const status = screen.getByTestId('jury-status');
    expect(within(status).getByTestId('jury-online').textContent).toBe('Online');
    expect(within(status).getByTestId('jury-pending').textContent).toBe('0 Eingaben');
  });

  it('opens a car by its typed start number, and says when it is not on the list', async () => {
    api();
    const { user, router } = await renderAt('/jury');
    const field = await screen.findByLabelText('Startnummer');
    await user.type(field, '99');
    await user.click(screen.getByRole('button', { name: 'Öffnen' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Startnummer 99 tritt in keiner Ihrer Klassen an.',
    );

    await user.clear(field);
    await user.type(field, '7{Enter}');
    expect(await screen.findByRole('heading', { level: 1, name: 'Volkswagen Golf 7' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/jury/7');
  });

  it('reads a windshield sign’s code: the car page’s address of this edition', () => {
    expect(startNumberFromCode('https://schlosstreffen.de/fahrzeuge/2026/17', 2026)).toEqual({
      startNumber: 17,
    });
    expect(startNumberFromCode('/fahrzeuge/2026/8', 2026)).toEqual({ startNumber: 8 });
    expect(startNumberFromCode(' 23 ', 2026)).toEqual({ startNumber: 23 });
    expect(startNumberFromCode('https://schlosstreffen.de/fahrzeuge/2025/17', 2026)).toEqual({
      error: 'Dieses Schild gehört zum Schlosstreffen 2025.',
    });
    expect(startNumberFromCode('37Cr11jAiva2Rm', 2026)).toEqual({
      error: 'Dieser Code gehört zu keinem Windschutzscheiben-Schild.',
    });
  });

  it('says so when no class is assigned yet', async () => {
    api(juryView({ classes: [], cars: [] }));
    await renderAt('/jury');
    expect(await screen.findByText('Ihnen ist noch keine Klasse zugeteilt.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Code scannen' })).toBeNull();
  });

  it('tells an account that judges nothing, in the server’s words', async () => {
    mockApi({
      'GET /api/auth/user': () => ({ body: SIGNED_IN_USER }),
      'GET /api/jury': failWith(403, JURY_MESSAGES.notJudge),
    });
    await renderAt('/jury');
    expect(await screen.findByText(JURY_MESSAGES.notJudge)).toBeTruthy();
  });

  it('sends a signed-out visitor to the login and back', async () => {
    mockApi();
    const { router } = await renderAt('/jury');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.location.search).toEqual({ redirect: '/jury' });
  });

  it('opens without network for the judge who loaded it, from the device', async () => {
    await storeJuryView(juryView());
    await rememberJuryJudge({ id: JUDGE.id, firstName: 'Lena', lastName: 'Weber', role: 'user' });
    mockApi({ 'GET /api/auth/user': unreachable, 'GET /api/jury': unreachable });
    window.history.replaceState(null, '', '/jury');
    await renderAt('/jury');
    expect(await classRegion('Bester Umbau')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('jury-online').textContent).toBe('Offline'));
    expect(screen.getByText(/Keine Verbindung\. Ihre Bewertungen bleiben auf diesem Gerät/)).toBeTruthy();
    window.history.replaceState(null, '', '/');
  });
});
