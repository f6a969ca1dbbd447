import { JURY_MESSAGES } from '@schlosstreffen/shared';
import type { AdminEdition, JuryAdminView, JuryClassAdminView } from '@schlosstreffen/shared/api';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { mockApi, renderAt, setupScreenTests, SIGNED_IN_USER, type User } from '../../../test/screen-helpers';
import { installDomShims } from '../../vehicle-form/test-helpers';

setupScreenTests();

// What jsdom lacks and the selects and dialogs use: pointer events, a size watch, scrolling.
beforeEach(() => {
  installDomShims();
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
  Element.prototype.scrollTo ??= () => undefined;
  Element.prototype.scrollIntoView ??= () => undefined;
});

const ADMIN = { ...SIGNED_IN_USER, role: 'admin' } as const;
const JURY = '/api/admin/jury/2026';

const EDITION: AdminEdition = {
  year: 2026,
  name: 'Schlosstreffen 2026',
  startsAt: '2026-06-20T08:00:00.000Z',
  endsAt: '2026-06-20T18:00:00.000Z',
  place: 'Schloss',
  applicationsOpenAt: '2026-01-01T00:00:00.000Z',
  applicationDeadline: '2026-03-31',
  parkingZones: [{ name: 'A', capacity: 30 }],
  confirmDays: 14,
  cutoffDays: 7,
  reminderDays: 3,
  currentFrom: '2026-01-01T00:00:00.000Z',
  phase: 'meetingDay',
  current: true,
  applications: 12,
  fee: null,
  visitorTickets: null,
};

const JUDGE_1 = 'b2000000-0000-4000-8000-000000000001';
const JUDGE_2 = 'b2000000-0000-4000-8000-000000000002';
const UMBAU = 'c3000000-0000-4000-8000-000000000001';
const KLASSIKER = 'c3000000-0000-4000-8000-000000000002';

const CRITERIA = [
  { id: 'sauberkeit', name: 'Sauberkeit', weight: 1, max: 10 },
  { id: 'umbau', name: 'Qualität des Umbaus', weight: 2, max: 10 },
];

const row = (startNumber: number, name: string, place: number | null, mean: number) => ({
  vehicleId: `d4000000-0000-4000-8000-00000000000${startNumber}`,
  startNumber,
  name,
  judges: 2,
  mean,
  heaviestMean: mean / 3,
  rank: place ?? 3,
  place,
  tieBreak: null,
});

const OPEN_CLASS: JuryClassAdminView = {
  id: UMBAU,
  name: 'Bester Umbau',
  position: 0,
  scope: { zones: ['A'], categories: [], yearFrom: null, yearTo: null },
  criteria: CRITERIA,
  places: 3,
  judgeIds: [JUDGE_1, JUDGE_2],
  headJudgeId: JUDGE_1,
  state: 'open',
  cars: 2,
  cardsExpected: 4,
  cardsDone: 3,
  missing: [{ judgeId: JUDGE_2, judgeName: 'Jan Richter', startNumber: 7, car: 'Roter Blitz' }],
  hasScores: true,
  result: null,
};

const CLOSED_CLASS: JuryClassAdminView = {
  id: KLASSIKER,
  name: 'Bester Klassiker',
  position: 1,
  scope: { zones: [], categories: [], yearFrom: 1950, yearTo: 1989 },
  criteria: CRITERIA,
  places: 2,
  judgeIds: [JUDGE_1],
  headJudgeId: null,
  state: 'closed',
  cars: 3,
  cardsExpected: 3,
  cardsDone: 3,
  missing: [],
  hasScores: true,
  result: {
    rows: [row(3, 'Blauer Wal', 1, 25), row(7, 'Roter Blitz', 2, 22), row(9, 'Grüne Gurke', null, 10)],
    closedAt: '2026-06-20T15:00:00.000Z',
    closedBy: 'Lena Weber',
    forceReason: null,
    tieBreaks: [],
  },
};

const VIEW: JuryAdminView = {
  year: 2026,
  editionName: 'Schlosstreffen 2026',
  closesBy: '2026-06-21T18:00:00.000Z',
  frozen: false,
  publishedAt: null,
  classes: [OPEN_CLASS, CLOSED_CLASS],
  judges: [
    { userId: JUDGE_1, name: 'Lena Weber', email: 'lena.weber@example.de', classIds: [UMBAU, KLASSIKER] },
    { userId: JUDGE_2, name: 'Jan Richter', email: 'jan@example.de', classIds: [UMBAU] },
  ],
  invites: [
    {
      id: 'e5000000-0000-4000-8000-000000000001',
      email: 'gast@example.de',
      classIds: [UMBAU],
      invitedAt: '2026-06-01T10:00:00.000Z',
    },
  ],
  recusals: [
    { judgeName: 'Jan Richter', startNumber: 9, car: 'Grüne Gurke', declaredAt: '2026-06-20T11:00:00.000Z' },
  ],
  corrections: [],
  zones: ['A', 'B'],
  categories: ['Motor', 'Optik'],
  certificatesUrl: null,
};

function mockJury(view: JuryAdminView, handlers: Parameters<typeof mockApi>[0] = {}) {
  return mockApi({
    'GET /api/auth/user': () => ({ body: ADMIN }),
    'GET /api/admin/editions': () => ({ body: { editions: [EDITION] } }),
    [`GET ${JURY}`]: () => ({ body: view }),
    ...handlers,
  });
}

/** Picks `option` in the select labelled `label`. */
async function choose(user: User, label: RegExp, option: string) {
  await user.selectOptions(screen.getByRole('combobox', { name: label }), option);
}

describe('/admin/jury', () => {
  it("lists the edition's classes with scope, scorecard, judges, progress and what is missing, the judges, invitations and biases", async () => {
    mockJury(VIEW);
    await renderAt('/admin/jury');

    const umbau = await screen.findByRole('article', { name: 'Bester Umbau' });
    expect(within(umbau).getByText('Parkzone A · 2 Autos')).toBeTruthy();
    expect(within(umbau).getByText('Offen')).toBeTruthy();
    expect(within(umbau).getByRole('cell', { name: 'Qualität des Umbaus' })).toBeTruthy();
    expect(within(umbau).getByRole('cell', { name: '× 2' })).toBeTruthy();
    expect(within(umbau).getAllByRole('cell', { name: '0–10' })).toHaveLength(2);
    expect(within(umbau).getByText('3 von 4 Bewertungen')).toBeTruthy();
    expect(within(umbau).getByText('Lena Weber, Jan Richter')).toBeTruthy();
    expect(within(umbau).getByText('Jan Richter – Startnummer 7 (Roter Blitz)')).toBeTruthy();
    // Scored already: it can no longer be deleted.
    expect(within(umbau).queryByRole('button', { name: /Löschen/ })).toBeNull();

    const klassiker = screen.getByRole('article', { name: 'Bester Klassiker' });
    expect(within(klassiker).getByText('Baujahr 1950–1989 · 3 Autos')).toBeTruthy();
    expect(within(klassiker).getByText('Abgeschlossen')).toBeTruthy();
    const ranking = within(klassiker).getByRole('list', { name: 'Rangliste Bester Klassiker' });
    expect(
      within(ranking)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      '1. PlatzNr. 3 · Blauer Wal25 Punkte',
      '2. PlatzNr. 7 · Roter Blitz22 Punkte',
      '3.Nr. 9 · Grüne Gurke10 Punkte',
    ]);

    const judges = screen.getByRole('list', { name: 'Jurymitglieder' });
    expect(
      within(judges)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      expect.stringContaining('Lena Weberlena.weber@example.deAlle Klassen'),
      expect.stringContaining('Jan Richterjan@example.deBester Umbau'),
    ]);
    expect(screen.getByText('gast@example.de')).toBeTruthy();
    const recusals = screen.getByRole('article', { name: 'Befangenheiten' });
    expect(within(recusals).getByText('Nr. 9 · Grüne Gurke')).toBeTruthy();

    // Publishing waits for every class; the deadline is shown.
    expect(screen.getByText('21.06.2026, 20:00 Uhr')).toBeTruthy();
    expect(screen.getByText(JURY_MESSAGES.notAllClosed(['Bester Umbau']))).toBeTruthy();
    expect(
      (screen.getByRole('button', { name: 'Ergebnisse veröffentlichen' }) as HTMLButtonElement).disabled,
    ).toBe(true);
    expect(screen.getByRole('link', { name: 'Siegerehrung' }).getAttribute('href')).toBe(
      '/admin/siegerehrung',
    );
    expect(screen.queryByRole('link', { name: /Urkunden/ })).toBeNull();
  });

  it('creates a class from the default scorecard, with German messages for what is wrong', async () => {
    const api = mockJury(VIEW, {
      [`POST ${JURY}/classes`]: () => ({
        status: 201,
        body: { ...OPEN_CLASS, id: 'c3000000-0000-4000-8000-000000000009' },
      }),
    });
    const { user } = await renderAt('/admin/jury');
    await user.click(await screen.findByRole('button', { name: 'Klasse anlegen' }));
    const form = await screen.findByRole('form', { name: 'Klasse anlegen' });

    // The default criteria, every judge of the edition chosen.
    const names = within(form)
      .getAllByRole('textbox', { name: /^Kriterium/ })
      .map((input) => (input as HTMLInputElement).value);
    expect(names).toEqual(['Sauberkeit', 'Qualität des Umbaus', 'Originalität', 'Gesamteindruck']);
    expect((within(form).getByRole('checkbox', { name: 'Lena Weber' }) as HTMLInputElement).checked).toBe(
      true,
    );

    await user.click(within(form).getByRole('button', { name: 'Klasse anlegen' }));
    expect(await within(form).findByText(JURY_MESSAGES.nameRequired)).toBeTruthy();
    const weight = within(form).getByRole('textbox', { name: /^Gewicht \(Nr\. 1\)/ });
    await user.clear(weight);
    await user.type(weight, '11');
    expect(await within(form).findByText(JURY_MESSAGES.weight)).toBeTruthy();

    const year = within(form).getByRole('textbox', { name: 'Baujahr von' });
    await user.type(year, '19');
    expect(await within(form).findByText(JURY_MESSAGES.years)).toBeTruthy();
    await user.type(year, '60');
    await user.type(within(form).getByRole('textbox', { name: 'Baujahr bis' }), '1959');

    await user.clear(weight);
    await user.type(weight, '3');
    await user.type(within(form).getByRole('textbox', { name: /^Name/ }), 'Bester Klassiker');
    await user.click(within(form).getByRole('button', { name: 'Kriterium 3 entfernen' }));
    await user.click(within(form).getByRole('button', { name: 'Kriterium hinzufügen' }));
    await user.type(within(form).getByRole('textbox', { name: /^Kriterium \(Nr\. 4\)/ }), 'Sauberkeit');
    await user.click(within(form).getByRole('checkbox', { name: 'B' }));
    await user.click(within(form).getByRole('checkbox', { name: 'Jan Richter' }));
    await choose(user, /Jury-Leitung/, 'Lena Weber');

    // Two criteria of one name, and years the wrong way round: refused before anything is sent.
    await user.click(within(form).getByRole('button', { name: 'Klasse anlegen' }));
    expect(await within(form).findByText(JURY_MESSAGES.criterionNamesUnique)).toBeTruthy();
    expect(within(form).getByText(JURY_MESSAGES.years)).toBeTruthy();
    expect(api.writes()).toEqual([]);

    const fourth = within(form).getByRole('textbox', { name: /^Kriterium \(Nr\. 4\)/ });
    await user.clear(fourth);
    await user.type(fourth, 'Sound');
    await user.click(within(form).getByRole('button', { name: 'Klasse anlegen' }));
    await waitFor(() => expect(within(form).queryByText(JURY_MESSAGES.criterionNamesUnique)).toBeNull());
    expect(within(form).getByText(JURY_MESSAGES.years)).toBeTruthy();
    const to = within(form).getByRole('textbox', { name: 'Baujahr bis' });
    await user.clear(to);
    await user.type(to, '1989');
    await user.click(within(form).getByRole('button', { name: 'Klasse anlegen' }));

    await waitFor(() => expect(api.writes()).toHaveLength(1));
    expect(api.writes()[0]).toEqual({
      method: 'POST',
      path: `${JURY}/classes`,
      body: {
        name: 'Bester Klassiker',
        scope: { zones: ['B'], categories: [], yearFrom: 1960, yearTo: 1989 },
        criteria: [
          { name: 'Sauberkeit', weight: 3, max: 10 },
          { name: 'Qualität des Umbaus', weight: 2, max: 10 },
          { name: 'Gesamteindruck', weight: 2, max: 10 },
          { name: 'Sound', weight: 1, max: 10 },
        ],
        places: 3,
        judgeIds: [JUDGE_1],
        headJudgeId: JUDGE_1,
      },
    });
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Klasse anlegen' })).toBeNull());
  });

  it('adds a judge by address, and invites one by mail when the address has no account', async () => {
    let calls = 0;
    const api = mockJury(VIEW, {
      [`POST ${JURY}/judges`]: (body) => {
        calls += 1;
        if (calls === 1) return { body: { result: 'added', message: JURY_MESSAGES.judgeAdded } };
        if ((body as { invite: boolean }).invite)
          return { body: { result: 'invited', message: JURY_MESSAGES.judgeInvited } };
        return { status: 404, body: { message: JURY_MESSAGES.judgeUnknownAccount } };
      },
    });
    const { user } = await renderAt('/admin/jury');
    const form = await screen.findByRole('form', { name: 'Jurymitglied hinzufügen' });
    const email = within(form).getByRole('textbox', { name: /E-Mail-Adresse/ });

    await user.type(email, 'kein-at');
    await user.click(within(form).getByRole('button', { name: 'Jurymitglied hinzufügen' }));
    expect(await within(form).findByText(JURY_MESSAGES.email)).toBeTruthy();
    expect(api.writes()).toEqual([]);

    await user.clear(email);
    await user.type(email, 'tom@example.de');
    await user.click(within(form).getByRole('button', { name: 'Jurymitglied hinzufügen' }));
    await screen.findAllByText(JURY_MESSAGES.judgeAdded);

    // Only one class chosen: the judge scores that one.
    await user.type(within(form).getByRole('textbox', { name: /E-Mail-Adresse/ }), 'neu@example.de');
    await user.click(within(form).getByRole('checkbox', { name: 'Bester Klassiker' }));
    await user.click(within(form).getByRole('button', { name: 'Jurymitglied hinzufügen' }));
    const alert = await within(form).findByRole('alert');
    expect(alert.textContent).toContain(JURY_MESSAGES.judgeUnknownAccount);
    await user.click(within(alert).getByRole('button', { name: 'Per E-Mail einladen' }));
    await screen.findAllByText(JURY_MESSAGES.judgeInvited);

    expect(api.writes()).toEqual([
      { method: 'POST', path: `${JURY}/judges`, body: { email: 'tom@example.de', invite: false } },
      {
        method: 'POST',
        path: `${JURY}/judges`,
        body: { email: 'neu@example.de', classIds: [UMBAU], invite: false },
      },
      {
        method: 'POST',
        path: `${JURY}/judges`,
        body: { email: 'neu@example.de', classIds: [UMBAU], invite: true },
      },
    ]);
  });

  it('closes a class with scores missing only with a reason, and settles a tie with an order and a reason', async () => {
    let calls = 0;
    const api = mockJury(VIEW, {
      [`POST /api/jury/classes/${UMBAU}/close`]: () => {
        calls += 1;
        if (calls === 1)
          return {
            status: 409,
            body: {
              message: JURY_MESSAGES.tieNeedsChoice(1, [3, 7]),
              ties: [
                {
                  place: 1,
                  startNumbers: [3, 7],
                  cars: [
                    { startNumber: 3, name: 'Blauer Wal' },
                    { startNumber: 7, name: 'Roter Blitz' },
                  ],
                },
              ],
            },
          };
        return {
          body: {
            id: UMBAU,
            name: 'Bester Umbau',
            state: 'closed',
            cardsExpected: 4,
            cardsDone: 3,
            missing: [],
            result: null,
          },
        };
      },
    });
    const { user } = await renderAt('/admin/jury');
    const umbau = await screen.findByRole('article', { name: 'Bester Umbau' });
    await user.click(within(umbau).getByRole('button', { name: 'Klasse abschließen – Bester Umbau' }));
    const dialog = await screen.findByRole('dialog', { name: 'Klasse abschließen' });
    expect(within(dialog).getByText('Jan Richter – Startnummer 7 (Roter Blitz)')).toBeTruthy();

    await user.click(within(dialog).getByRole('button', { name: 'Trotzdem abschließen' }));
    expect(await within(dialog).findByText(JURY_MESSAGES.reason)).toBeTruthy();
    expect(api.writes()).toEqual([]);

    await user.type(
      within(dialog).getByRole('textbox', { name: /trotz fehlender Bewertungen/ }),
      'Jan musste früher gehen.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Trotzdem abschließen' }));
    const order = await within(dialog).findByRole('list', { name: 'Reihenfolge ab Platz 1' });
    expect(within(dialog).getAllByText(JURY_MESSAGES.tieNeedsChoice(1, [3, 7])).length).toBeGreaterThan(0);
    await user.click(within(order).getByRole('button', { name: 'Nr. 7 nach oben' }));
    expect(
      within(order)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      expect.stringContaining('Nr. 7 · Roter Blitz'),
      expect.stringContaining('Nr. 3 · Blauer Wal'),
    ]);
    await user.type(
      within(dialog).getByRole('textbox', { name: /Begründung der Reihenfolge ab Platz 1/ }),
      'Der saubere Motorraum gab den Ausschlag.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Trotzdem abschließen' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Klasse abschließen' })).toBeNull());

    expect(api.writes()).toEqual([
      {
        method: 'POST',
        path: `/api/jury/classes/${UMBAU}/close`,
        body: { tieBreaks: [], forceReason: 'Jan musste früher gehen.' },
      },
      {
        method: 'POST',
        path: `/api/jury/classes/${UMBAU}/close`,
        body: {
          tieBreaks: [{ startNumbers: [7, 3], reason: 'Der saubere Motorraum gab den Ausschlag.' }],
          forceReason: 'Jan musste früher gehen.',
        },
      },
    ]);
  });

  it('publishes the results once every class is closed, after asking, and then links the public page and the certificates', async () => {
    const closed = { ...VIEW, classes: [CLOSED_CLASS] };
    const published = {
      ...closed,
      publishedAt: '2026-06-20T17:00:00.000Z',
      certificatesUrl: '/objects/exports/jury/2026/urkunden.pdf',
    };
    let current: JuryAdminView = closed;
    const api = mockJury(closed, {
      [`GET ${JURY}`]: () => ({ body: current }),
      [`POST ${JURY}/publish`]: () => {
        current = published;
        return { body: published };
      },
    });
    const { user } = await renderAt('/admin/jury');
    await user.click(await screen.findByRole('button', { name: 'Ergebnisse veröffentlichen' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Ergebnisse veröffentlichen?' });
    await user.click(within(dialog).getByRole('button', { name: 'Veröffentlichen' }));

    expect(await screen.findByText('Veröffentlicht', { selector: 'span' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Öffentliche Ergebnisse' }).getAttribute('href')).toBe(
      '/ergebnisse/2026',
    );
    expect(screen.getByRole('link', { name: 'Urkunden (PDF)' }).getAttribute('href')).toBe(
      '/objects/exports/jury/2026/urkunden.pdf',
    );
    expect(screen.queryByRole('button', { name: 'Ergebnisse veröffentlichen' })).toBeNull();
    // Published: classes stay as they are.
    expect(screen.queryByRole('button', { name: 'Klasse anlegen' })).toBeNull();
    expect(api.writes()).toEqual([{ method: 'POST', path: `${JURY}/publish`, body: {} }]);
  });

  it('corrects the places of a class in the frozen record with a reason, and lists the corrections', async () => {
    const frozen: JuryAdminView = {
      ...VIEW,
      frozen: true,
      publishedAt: '2026-06-20T17:00:00.000Z',
      classes: [CLOSED_CLASS],
      corrections: [
        {
          at: '2026-06-25T09:00:00.000Z',
          classId: KLASSIKER,
          className: 'Bester Klassiker',
          from: [7, 3],
          to: [3, 7],
          reason: 'Punkte vertauscht übertragen',
        },
      ],
    };
    const api = mockJury(frozen, { [`POST ${JURY}/correction`]: () => ({ body: frozen }) });
    const { user } = await renderAt('/admin/jury');
    expect(await screen.findByText(JURY_MESSAGES.frozen('Schlosstreffen 2026'))).toBeTruthy();
    expect(
      screen.getByText(
        /Bester Klassiker: 1\. Nr\. 7, 2\. Nr\. 3 → 1\. Nr\. 3, 2\. Nr\. 7\.\s+Grund: Punkte vertauscht übertragen/,
      ),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Klasse abschließen/ })).toBeNull();
    expect(screen.queryByRole('form', { name: 'Jurymitglied hinzufügen' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Korrektur – Bester Klassiker' }));
    const form = await screen.findByRole('form', { name: 'Korrektur Bester Klassiker' });
    await choose(user, /^1\. Platz/, 'Nr. 9 · Grüne Gurke');
    await user.type(within(form).getByRole('textbox', { name: /Grund/ }), 'zu kurz');
    await user.click(within(form).getByRole('button', { name: 'Korrigieren' }));
    expect(await within(form).findByText(JURY_MESSAGES.reason)).toBeTruthy();
    expect(api.writes()).toEqual([]);

    await user.type(
      within(form).getByRole('textbox', { name: /Grund/ }),
      ': Wertung von Startnummer 9 fehlte',
    );
    await user.click(within(form).getByRole('button', { name: 'Korrigieren' }));
    await waitFor(() => expect(api.writes()).toHaveLength(1));
    expect(api.writes()[0]).toEqual({
      method: 'POST',
      path: `${JURY}/correction`,
      body: { classId: KLASSIKER, places: [9, 7], reason: 'zu kurz: Wertung von Startnummer 9 fehlte' },
    });
  });
});
