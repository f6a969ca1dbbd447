import 'fake-indexeddb/auto';
import { JURY_MESSAGES } from '@schlosstreffen/shared';
import type { JurySyncResult } from '@schlosstreffen/shared/api';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  mockApi,
  renderAt,
  setupScreenTests,
  SIGNED_IN_USER,
  type RecordedCall,
} from '../../test/screen-helpers';
import { CLASS_A, CLASS_B, juryView, syncAnswer } from './jury-fixtures';
import { clearJury, juryQueue } from './jury-store';

setupScreenTests();

const JUDGE = { ...SIGNED_IN_USER, judge: true };

let online = true;
let reachable = true;

beforeEach(() => {
  online = true;
  reachable = true;
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online });
});

afterEach(async () => {
  Reflect.deleteProperty(navigator, 'onLine');
  await clearJury();
});

/** The server: the view, and syncs answered as the server would (values kept, the last one counting). */
function api(view = juryView()) {
  const held: JurySyncResult['scores'] = [...view.scores];
  return mockApi({
    'GET /api/auth/user': () => ({ body: JUDGE }),
    'GET /api/jury': () =>
      reachable ? { body: { ...view, scores: held } } : Promise.reject(new TypeError('offline')),
    'POST /api/jury/sync': (body) => {
      if (!reachable) return Promise.reject(new TypeError('Failed to fetch'));
      const sent = body as { entries: (JurySyncResult['scores'][number] & { id: string })[] };
      for (const { id: _id, ...entry } of sent.entries) {
        const at = held.findIndex(
          (s) =>
            s.classId === entry.classId &&
            s.startNumber === entry.startNumber &&
            s.criterion === entry.criterion,
        );
        if (at >= 0) held.splice(at, 1);
        held.push(entry);
      }
      return { body: syncAnswer(body, [...held], [40]) };
    },
  });
}

const syncs = (calls: RecordedCall[]) => calls.filter((call) => call.path === '/api/jury/sync');

async function scorecard(name: string) {
  const card = await screen.findByRole('region', { name });
  return within(card);
}

const group = (card: ReturnType<typeof within>, name: string) =>
  within(card.getByRole('group', { name: new RegExp(`^${name}`) }));

describe('/jury/{Startnummer}', () => {
  it('keeps each value on the device first, sends it, and shows the weighted total', async () => {
    const { calls } = api();
    const { user } = await renderAt(`/jury/12?klasse=${CLASS_A}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Rotkäppchen' })).toBeTruthy();
    const card = await scorecard('Bester Umbau');
    expect(card.getByRole('group', { name: 'Sauberkeit Gewicht 1 · 0–10' })).toBeTruthy();
    expect(group(card, 'Sauberkeit').getAllByRole('radio')).toHaveLength(11);

    await user.click(group(card, 'Sauberkeit').getByRole('radio', { name: '7' }));
    await waitFor(() => expect(syncs(calls)).toHaveLength(1));
    expect(syncs(calls)[0]!.body).toMatchObject({
      entries: [{ classId: CLASS_A, startNumber: 12, criterion: 'sauberkeit', value: 7 }],
      recusals: [],
    });
    expect((group(card, 'Sauberkeit').getByRole('radio', { name: '7' }) as HTMLInputElement).checked).toBe(
      true,
    );
    expect(card.getByTestId('jury-card-total').textContent).toContain('7 von 30');
    expect(card.getByTestId('jury-card-total').textContent).toContain('Noch offen: Qualität des Umbaus');

    await user.click(group(card, 'Qualität des Umbaus').getByRole('radio', { name: '9' }));
    await waitFor(() => expect(card.getByTestId('jury-card-total').textContent).toContain('25 von 30'));
    expect(card.getByTestId('jury-card-total').textContent).toContain('Vollständig bewertet');
    await waitFor(() => expect(syncs(calls)).toHaveLength(2));
    await waitFor(() => expect(screen.getByTestId('jury-car-pending').textContent).toContain('0 Eingaben'));
    expect((await juryQueue()).entries).toEqual([]);
  });

  it('keeps values entered offline queued and sends them once when the network is back', async () => {
    const { calls } = api();
    const { user } = await renderAt(`/jury/7?klasse=${CLASS_A}`);
    let card = await scorecard('Bester Umbau');
    online = false;
    reachable = false;
    window.dispatchEvent(new Event('offline'));
    await waitFor(() => expect(screen.getByTestId('jury-car-pending').textContent).toContain('Offline'));

    await user.click(group(card, 'Sauberkeit').getByRole('radio', { name: '4' }));
    await user.click(group(card, 'Sauberkeit').getByRole('radio', { name: '5' }));
    await user.click(group(card, 'Qualität des Umbaus').getByRole('radio', { name: '10' }));
    // The stepper of the 0–20 scale.
    const glanz = await scorecard('Beste Lackierung');
    await user.click(glanz.getByRole('button', { name: 'Glanz: einen Punkt mehr' }));
    await user.click(glanz.getByRole('button', { name: 'Glanz: einen Punkt mehr' }));
    await waitFor(() => expect(screen.getByTestId('jury-car-pending').textContent).toContain('3 Eingaben'));
    expect((glanz.getByRole('textbox', { name: 'Glanz, 0 bis 20' }) as HTMLInputElement).value).toBe('1');
    expect(syncs(calls)).toHaveLength(0);
    const queued = await juryQueue();
    expect(queued.entries.map((e) => [e.criterion, e.value])).toEqual([
      ['sauberkeit', 5],
      ['umbau', 10],
      ['glanz', 1],
    ]);
    expect(card.getByTestId('jury-card-total').textContent).toContain('25 von 30');

    // A reload offline loses nothing.
    cleanup();
    await renderAt(`/jury/7?klasse=${CLASS_A}`);
    card = await scorecard('Bester Umbau');
    expect((group(card, 'Sauberkeit').getByRole('radio', { name: '5' }) as HTMLInputElement).checked).toBe(
      true,
    );
    expect(card.getByTestId('jury-card-total').textContent).toContain('25 von 30');
    await waitFor(() => expect(screen.getByTestId('jury-car-pending').textContent).toContain('3 Eingaben'));

    online = true;
    reachable = true;
    window.dispatchEvent(new Event('online'));
    await waitFor(() => expect(screen.getByTestId('jury-car-pending').textContent).toContain('0 Eingaben'));
    expect(syncs(calls)).toHaveLength(1);
    expect((syncs(calls)[0]!.body as { entries: unknown[] }).entries).toHaveLength(3);
    expect(card.getByTestId('jury-card-total').textContent).toContain('25 von 30');
    expect(screen.getByTestId('jury-car-pending').textContent).toContain('Online');
  });

  it('locks the card once the judge declares a bias, after asking', async () => {
    const { calls } = api();
    const { user } = await renderAt('/jury/12');
    await scorecard('Bester Umbau');
    await user.click(screen.getByRole('button', { name: 'Befangen' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Als befangen erklären?' });
    expect(dialog.textContent).toContain('endgültig');
    await user.click(within(dialog).getByRole('button', { name: 'Befangen erklären' }));

    expect((await screen.findByTestId('jury-excluded')).textContent).toContain(JURY_MESSAGES.biased);
    expect(screen.queryByRole('radio')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Befangen' })).toBeNull();
    await waitFor(() => expect(syncs(calls)).toHaveLength(1));
    expect(syncs(calls)[0]!.body).toMatchObject({ entries: [], recusals: [{ startNumber: 12 }] });
  });

  it('says why the judge’s own car is not scored', async () => {
    api();
    await renderAt('/jury/31');
    expect((await screen.findByTestId('jury-excluded')).textContent).toBe(
      `Eigenes Auto: ${JURY_MESSAGES.ownCar}`,
    );
    expect(screen.queryByRole('radio')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Befangen' })).toBeNull();
  });

  it('shows a closed class’s card read-only', async () => {
    const view = juryView({
      scores: [
        {
          classId: CLASS_A,
          startNumber: 12,
          criterion: 'umbau',
          value: 8,
          enteredAt: '2026-06-20T09:00:00.000Z',
        },
      ],
    });
    view.classes[0] = { ...view.classes[0]!, state: 'closed' };
    api(view);
    await renderAt('/jury/12');
    const card = await scorecard('Bester Umbau');
    expect(
      card.getByText('Die Klasse ist abgeschlossen. Ihre Bewertung ist nur noch zu lesen.'),
    ).toBeTruthy();
    expect(card.getByText('8 von 10')).toBeTruthy();
    expect(card.queryByRole('radio')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Befangen' })).toBeNull();
  });

  it('leads to the neighbours in the class’s walking order', async () => {
    api();
    const { user, router } = await renderAt(`/jury/7?klasse=${CLASS_A}`);
    const nav = await screen.findByRole('navigation', { name: 'Laufreihenfolge: Bester Umbau' });
    expect(nav.textContent).toContain('Bester Umbau: Auto 2 von 4');
    expect(within(nav).getByRole('link', { name: 'Vorheriges Auto: Nr. 12 · Rotkäppchen' })).toBeTruthy();
    await user.click(within(nav).getByRole('link', { name: 'Nächstes Auto: Nr. 31 · Volkswagen Golf 31' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/jury/31'));

    // From the car's other class, its order there.
    await router.navigate({
      to: '/jury/$startNumber',
      params: { startNumber: '7' },
      search: { klasse: CLASS_B },
    });
    const other = await screen.findByRole('navigation', { name: 'Laufreihenfolge: Beste Lackierung' });
    expect(within(other).queryAllByRole('link')).toHaveLength(0);
  });

  it('says when the car competes in none of the judge’s classes', async () => {
    api();
    await renderAt('/jury/55');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Startnummer 55 tritt in keiner Ihrer Klassen an.',
    );
  });
});
