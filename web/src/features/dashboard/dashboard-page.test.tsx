import { CONSENT_KINDS, CONSENTS, type VehicleStatus } from '@schlosstreffen/shared';
import { createMemoryHistory, RouterProvider } from '@tanstack/react-router';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toaster } from '../../components/ui/toaster';
import { createQueryClient } from '../../lib/query-client';
import type { CurrentUser, Vehicle } from '@schlosstreffen/shared/api';
import { createAppRouter } from '../../router';
import { SIGNED_IN_USER } from '../../test/screen-helpers';
import { installDomShims } from '../vehicle-form/test-helpers';
import { makeInvitation, makeVehicle } from '../vehicles/vehicle-fixtures';

const USER: CurrentUser = {
  ...SIGNED_IN_USER,
  id: 'u1',
  consentMedia: true,
  consentQuartett: true,
  consentContact: true,
};

interface Call {
  method: string;
  url: string;
  body: unknown;
}

/** A tiny API: the current user, the owner's list and per-test answers for writes. */
let signedIn: boolean;
/** What GET /api/auth/user answers for the signed-in owner. */
let me: CurrentUser;
let vehicles: Vehicle[];
let calls: Call[];
let listResponse: (() => Promise<Response> | Response) | null;
let writeResponse: ((call: Call) => Promise<Response> | Response) | null;

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

function apiError(status: number, message: string): Response {
  return json({ message }, status);
}

/** The server's default behaviour for PATCH and DELETE: apply the change to `vehicles`. */
function applyWrite(call: Call): Response {
  const id = decodeURIComponent(call.url.split('/').at(-1) ?? '');
  const vehicle = vehicles.find((item) => item.id === id);
  if (!vehicle) return apiError(404, 'Fahrzeug nicht gefunden');
  if (call.method === 'DELETE') {
    vehicles = vehicles.filter((item) => item.id !== id);
    return new Response(null, { status: 204 });
  }
  const { status } = call.body as { status: VehicleStatus };
  vehicles = vehicles.map((item) => (item.id === id ? { ...item, status } : item));
  return json({ ...vehicle, status });
}

const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
  const url = String(input);
  const method = init?.method ?? 'GET';
  const call = { method, url, body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined };
  calls.push(call);
  if (url === '/api/auth/user') return signedIn ? json(me) : apiError(401, 'Nicht angemeldet');
  if (url === '/api/vehicles' && method === 'GET') return listResponse ? listResponse() : json(vehicles);
  if (url.startsWith('/api/vehicles/') && url.endsWith('/decline') && method === 'POST') {
    const id = decodeURIComponent(url.split('/').at(-2) ?? '');
    const released = makeInvitation({ releasedAt: '2026-04-03T10:00:00.000Z', releaseReason: 'declined' });
    vehicles = vehicles.map((item) =>
      item.id === id ? { ...item, status: 'rejected', invitation: released } : item,
    );
    return json({ status: 'declined', message: 'ok', vehicle: vehicles.find((item) => item.id === id) });
  }
  if (url.startsWith('/api/vehicles/') && url.endsWith('/reapply') && method === 'POST') {
    const id = decodeURIComponent(url.split('/').at(-2) ?? '');
    const source = vehicles.find((item) => item.id === id)!;
    const copy = {
      ...source,
      id: 'a1b2c3d4-0000-4000-8000-0000000000c2',
      status: 'draft' as const,
      edition: { year: 2026, name: 'Schlosstreffen 2026' },
    };
    vehicles = [copy, ...vehicles];
    return json(copy, 201);
  }
  if (url.startsWith('/api/vehicles/') && (method === 'PATCH' || method === 'DELETE')) {
    return writeResponse ? writeResponse(call) : applyWrite(call);
  }
  return apiError(404, `Unerwarteter Aufruf ${method} ${url}`);
});

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

async function renderDashboard({ awaitLoad = true } = {}) {
  const router = createAppRouter({
    queryClient: createQueryClient(),
    history: createMemoryHistory({ initialEntries: ['/dashboard'] }),
  });
  if (awaitLoad) await router.load();
  render(<RouterProvider router={router} />);
  return router;
}

function card(name: string): HTMLElement {
  return screen.getByRole('article', { name });
}

function writes(): Call[] {
  return calls.filter((call) => call.method !== 'GET');
}

function vehicleGets(): number {
  return calls.filter((call) => call.method === 'GET' && call.url === '/api/vehicles').length;
}

async function findToast(title: string): Promise<HTMLElement> {
  const titleEl = await screen.findByText(title, { selector: '[data-testid="toast"] *' });
  return titleEl.closest<HTMLElement>('[data-testid="toast"]')!;
}

beforeEach(() => {
  signedIn = true;
  me = USER;
  vehicles = [];
  calls = [];
  listResponse = null;
  writeResponse = null;
  vi.stubGlobal('fetch', fetchMock);
  // jsdom has no scrolling (the router's scroll restoration) and no PointerEvent (Ark's checkboxes).
  installDomShims();
});

afterEach(() => {
  cleanup();
  toaster.remove();
  fetchMock.mockClear();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const STATUSES: VehicleStatus[] = [
  'draft',
  'submitted',
  'in_review',
  'waitlist',
  'invited',
  'confirmed',
  'rejected',
];

describe('/dashboard', () => {
  it('sends signed-out visitors to /login', async () => {
    signedIn = false;
    const router = await renderDashboard();

    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.location.search).toEqual({ redirect: '/dashboard' });
  });

  it("shows 'Lädt...' while the sign-in check runs", async () => {
    const user = deferred<Response>();
    fetchMock.mockImplementationOnce(() => user.promise);
    await renderDashboard({ awaitLoad: false });

    expect(await screen.findByText('Lädt...')).toBeTruthy();
    user.resolve(json(USER));
    expect(await screen.findByRole('heading', { level: 1, name: 'Meine Fahrzeuge' })).toBeTruthy();
  });

  it('shows three skeleton cards while the list loads', async () => {
    const list = deferred<Response>();
    listResponse = () => list.promise;
    await renderDashboard();

    expect(await screen.findByRole('heading', { level: 1, name: 'Meine Fahrzeuge' })).toBeTruthy();
    expect(screen.getAllByTestId('vehicle-card-skeleton')).toHaveLength(3);
    expect(screen.getByRole('status').textContent).toBe('Fahrzeuge werden geladen...');

    list.resolve(json([makeVehicle()]));
    expect(await screen.findByRole('article', { name: 'BMW M3' })).toBeTruthy();
    expect(screen.queryAllByTestId('vehicle-card-skeleton')).toHaveLength(0);
  });

  it('sets title and description and links to the start page and /apply', async () => {
    vehicles = [makeVehicle()];
    await renderDashboard();

    await screen.findByRole('article', { name: 'BMW M3' });
    expect(document.title).toBe('Meine Fahrzeuge – Schlosstreffen');
    expect(document.querySelector('meta[name="description"]')?.getAttribute('content')).toContain(
      'Fahrzeuge',
    );
    expect(screen.getByRole('link', { name: /Zur Startseite/ }).getAttribute('href')).toBe('/');
    expect(screen.getByRole('link', { name: /Weiteres Fahrzeug anmelden/ }).getAttribute('href')).toBe(
      '/apply',
    );
  });

  it("links to the profile ('Mein Profil') beside its buttons", async () => {
    await renderDashboard();

    await screen.findByRole('heading', { name: 'Noch keine Fahrzeuge' });
    const main = screen.getByRole('main');
    expect(within(main).getByRole('link', { name: 'Mein Profil' }).getAttribute('href')).toBe('/profile');
  });

  it('tells an owner whose address bounced why mails do not arrive, with the way to correct it', async () => {
    me = {
      ...USER,
      email: 'tippfehler@example.de',
      mailBounced: { address: 'tippfehler@example.de', since: '2026-04-02T10:00:00.000Z' },
    };
    await renderDashboard();

    const notice = await screen.findByTestId('mail-bounced-notice');
    expect(notice.textContent).toContain(
      'Die E-Mail an tippfehler@example.de wurde vom Empfänger-Server abgelehnt. Bitte korrigieren Sie Ihre E-Mail-Adresse im Profil.',
    );
    expect(
      within(notice).getByRole('link', { name: 'E-Mail-Adresse korrigieren' }).getAttribute('href'),
    ).toBe('/profile');
  });

  it('shows no bounce notice while mails arrive', async () => {
    me = { ...USER, mailBounced: null };
    await renderDashboard();

    await screen.findByRole('heading', { name: 'Noch keine Fahrzeuge' });
    expect(screen.queryByTestId('mail-bounced-notice')).toBeNull();
  });

  it("shows the empty state 'Noch keine Fahrzeuge' with a button to the first application", async () => {
    await renderDashboard();

    expect(await screen.findByRole('heading', { name: 'Noch keine Fahrzeuge' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Erstes Fahrzeug anmelden' }).getAttribute('href')).toBe(
      '/apply',
    );
    expect(screen.queryByRole('article')).toBeNull();
  });

  it('shows a load error with the server message and retries', async () => {
    const user = userEvent.setup();
    listResponse = () => apiError(500, 'Die Datenbank ist nicht erreichbar.');
    await renderDashboard();

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Fahrzeuge konnten nicht geladen werden');
    expect(alert.textContent).toContain('Die Datenbank ist nicht erreichbar.');

    listResponse = null;
    vehicles = [makeVehicle()];
    await user.click(within(alert).getByRole('button', { name: 'Erneut versuchen' }));
    expect(await screen.findByRole('article', { name: 'BMW M3' })).toBeTruthy();
  });

  it('offers per status: edit always, submit and delete for drafts, withdraw except draft and rejected', async () => {
    vehicles = STATUSES.map((status, index) =>
      makeVehicle({ id: `00000000-0000-4000-8000-00000000000${index}`, name: `Wagen ${status}`, status }),
    );
    await renderDashboard();
    await screen.findByRole('article', { name: 'Wagen draft' });

    const actionsOf = (status: VehicleStatus) =>
      within(card(`Wagen ${status}`))
        .queryAllByRole('button')
        .map((button) => button.textContent);

    expect(actionsOf('draft')).toEqual(['Einreichen', 'Löschen']);
    expect(actionsOf('submitted')).toEqual(['Zurückziehen']);
    expect(actionsOf('in_review')).toEqual(['Zurückziehen']);
    expect(actionsOf('waitlist')).toEqual(['Zurückziehen']);
    expect(actionsOf('invited')).toEqual(['Teilnahme bestätigen', 'Teilnahme absagen', 'Zurückziehen']);
    expect(actionsOf('confirmed')).toEqual(['Teilnahme absagen', 'Zurückziehen']);
    expect(actionsOf('rejected')).toEqual([]);

    STATUSES.forEach((status, index) => {
      const edit = within(card(`Wagen ${status}`)).getByRole('link', { name: `Wagen ${status} bearbeiten` });
      expect(edit.getAttribute('href')).toBe(`/edit/00000000-0000-4000-8000-00000000000${index}`);
    });
  });

  it('staggers the cards by 0.1 s', async () => {
    vehicles = [
      makeVehicle({ id: '00000000-0000-4000-8000-000000000001', name: 'Eins' }),
      makeVehicle({ id: '00000000-0000-4000-8000-000000000002', name: 'Zwei' }),
      makeVehicle({ id: '00000000-0000-4000-8000-000000000003', name: 'Drei' }),
    ];
    await renderDashboard();
    await screen.findByRole('article', { name: 'Eins' });

    const delays = within(screen.getByRole('list', { name: 'Meine Fahrzeuge' }))
      .getAllByRole('listitem')
      .map((item) => item.style.transitionDelay);
    expect(delays).toEqual(['0.00s', '0.10s', '0.20s']);
  });

  it("asks for the wizard's three consents before submitting; Abbrechen sends nothing", async () => {
    const user = userEvent.setup();
    vehicles = [makeVehicle({ status: 'draft', name: 'Rote Zora' })];
    await renderDashboard();

    await user.click(
      await within(await screen.findByRole('article', { name: 'Rote Zora' })).findByRole('button', {
        name: 'Einreichen',
      }),
    );
    let dialog = await screen.findByRole('alertdialog', { name: 'Bewerbung einreichen?' });
    expect(dialog.textContent).toContain('„Rote Zora“ wird zur Prüfung eingereicht.');
    // The same wording as the wizard's last step, each unticked.
    const boxes = within(dialog).getAllByRole('checkbox');
    expect(boxes.map((box) => box.closest('label')?.textContent)).toEqual(
      CONSENT_KINDS.map((kind) => `${CONSENTS[kind].text} *`),
    );
    expect(boxes.map((box) => (box as HTMLInputElement).checked)).toEqual([false, false, false]);
    expect(
      within(dialog)
        .getByRole('link', { name: 'Datenschutzerklärung (öffnet in neuem Tab)' })
        .getAttribute('href'),
    ).toBe('/datenschutz');

    // Pressed without every tick: the wizard's messages name what is missing, nothing is sent.
    await user.click(within(dialog).getByRole('checkbox', { name: /sozialen Medien/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Einreichen' }));
    expect(within(dialog).queryByText('Einwilligung zur Mediennutzung ist erforderlich')).toBeNull();
    expect(within(dialog).getByText('Einwilligung für Auto-Quartett ist erforderlich')).toBeTruthy();
    expect(within(dialog).getByText('Einwilligung zur Kontaktaufnahme ist erforderlich')).toBeTruthy();
    expect(writes()).toEqual([]);

    await user.click(within(dialog).getByRole('button', { name: 'Abbrechen' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(writes()).toEqual([]);

    // Opened again, it starts anew.
    await user.click(within(card('Rote Zora')).getByRole('button', { name: 'Einreichen' }));
    dialog = await screen.findByRole('alertdialog', { name: 'Bewerbung einreichen?' });
    expect(
      within(dialog)
        .getAllByRole('checkbox')
        .map((box) => (box as HTMLInputElement).checked),
    ).toEqual([false, false, false]);
    expect(within(dialog).queryByText('Einwilligung für Auto-Quartett ist erforderlich')).toBeNull();
  });

  it('submits a draft with PATCH {status: submitted} and the three consents, disabled while pending, then refreshes', async () => {
    const user = userEvent.setup();
    vehicles = [makeVehicle({ status: 'draft' })];
    const answer = deferred<Response>();
    writeResponse = async (call) => {
      await answer.promise;
      return applyWrite(call);
    };
    await renderDashboard();
    await screen.findByRole('article', { name: 'BMW M3' });
    const listReads = vehicleGets();

    await user.click(within(card('BMW M3')).getByRole('button', { name: 'Einreichen' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Bewerbung einreichen?' });
    for (const box of within(dialog).getAllByRole('checkbox')) await user.click(box);
    await user.click(within(dialog).getByRole('button', { name: 'Einreichen' }));

    expect(
      (await within(dialog).findByRole('button', { name: 'Wird eingereicht...' })).hasAttribute('disabled'),
    ).toBe(true);
    // Behind the open dialog (hidden from the accessibility tree), the card is busy too.
    const behind = screen.getByRole('article', { name: 'BMW M3', hidden: true });
    const pending = within(behind).getByRole('button', { name: 'Wird eingereicht...', hidden: true });
    expect(pending.hasAttribute('disabled')).toBe(true);
    expect(
      within(behind).getByRole('button', { name: 'Löschen', hidden: true }).hasAttribute('disabled'),
    ).toBe(true);
    expect(writes()).toEqual([
      {
        method: 'PATCH',
        url: `/api/vehicles/${vehicles[0]!.id}`,
        body: { status: 'submitted', consentMedia: true, consentQuartett: true, consentContact: true },
      },
    ]);

    answer.resolve(new Response());
    const toast = await findToast('Bewerbung eingereicht');
    expect(toast.textContent).toContain('Ihr Fahrzeug wurde zur Prüfung eingereicht.');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(await within(card('BMW M3')).findByText('Eingereicht')).toBeTruthy();
    expect(vehicleGets()).toBeGreaterThan(listReads);
    expect(within(card('BMW M3')).getByRole('button', { name: 'Zurückziehen' })).toBeTruthy();
  });

  it("shows 'Einreichung fehlgeschlagen' with the server's message", async () => {
    const user = userEvent.setup();
    vehicles = [makeVehicle({ status: 'draft' })];
    writeResponse = () => apiError(409, 'Nur Entwürfe können eingereicht werden.');
    await renderDashboard();

    await user.click(
      await within(await screen.findByRole('article')).findByRole('button', { name: 'Einreichen' }),
    );
    const dialog = await screen.findByRole('alertdialog', { name: 'Bewerbung einreichen?' });
    for (const box of within(dialog).getAllByRole('checkbox')) await user.click(box);
    await user.click(within(dialog).getByRole('button', { name: 'Einreichen' }));

    const toast = await findToast('Einreichung fehlgeschlagen');
    expect(toast.textContent).toContain('Nur Entwürfe können eingereicht werden.');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(within(card('BMW M3')).getByRole('button', { name: 'Einreichen' }).hasAttribute('disabled')).toBe(
      false,
    );
  });

  it('withdraws after the dialog with PATCH {status: draft}; Abbrechen sends nothing', async () => {
    const user = userEvent.setup();
    vehicles = [makeVehicle({ status: 'in_review', name: 'Rote Zora' })];
    await renderDashboard();

    await user.click(
      await within(await screen.findByRole('article', { name: 'Rote Zora' })).findByRole('button', {
        name: 'Zurückziehen',
      }),
    );
    let dialog = await screen.findByRole('alertdialog', { name: 'Bewerbung zurückziehen?' });
    expect(dialog.textContent).toContain('„Entwurf“');
    expect(dialog.textContent).toContain('aus der Prüfung genommen');
    expect(dialog.textContent).toContain('später erneut eingereicht');

    await user.click(within(dialog).getByRole('button', { name: 'Abbrechen' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(writes()).toEqual([]);

    await user.click(within(card('Rote Zora')).getByRole('button', { name: 'Zurückziehen' }));
    dialog = await screen.findByRole('alertdialog', { name: 'Bewerbung zurückziehen?' });
    await user.click(within(dialog).getByRole('button', { name: 'Zurückziehen' }));

    const toast = await findToast('Bewerbung zurückgezogen');
    expect(toast.textContent).toContain('Ihr Fahrzeug wurde aus der Prüfung entfernt.');
    expect(writes()).toEqual([
      { method: 'PATCH', url: `/api/vehicles/${vehicles[0]!.id}`, body: { status: 'draft' } },
    ]);
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(await within(card('Rote Zora')).findByText('Entwurf')).toBeTruthy();
    expect(within(card('Rote Zora')).getByRole('button', { name: 'Einreichen' })).toBeTruthy();
  });

  it('declines an invitation after its dialog; the card then says why the place went', async () => {
    const user = userEvent.setup();
    vehicles = [
      makeVehicle({
        status: 'invited',
        name: 'Blaue Elise',
        invitation: makeInvitation(),
      }),
    ];
    await renderDashboard();
    const elise = await screen.findByRole('article', { name: 'Blaue Elise' });
    expect(within(elise).getByText('Bitte bestätigen bis 15.04.2026, 12:00 Uhr')).toBeTruthy();
    await user.click(within(elise).getByRole('button', { name: 'Teilnahme absagen' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Teilnahme absagen?' });
    expect(dialog.textContent).toContain('nächste Fahrzeug auf der Warteliste');
    await user.click(within(dialog).getByRole('button', { name: 'Teilnahme absagen' }));

    expect(await findToast('Teilnahme abgesagt')).toBeTruthy();
    expect(writes()).toEqual([
      { method: 'POST', url: `/api/vehicles/${vehicles[0]!.id}/decline`, body: undefined },
    ]);
    expect(
      await within(card('Blaue Elise')).findByText(
        'Teilnahme am 03.04.2026 abgesagt. Der Platz wurde weitergegeben.',
      ),
    ).toBeTruthy();
  });

  it("applies again with last year's car as a draft without consents, then shows it beside the old", async () => {
    const user = userEvent.setup();
    vehicles = [
      makeVehicle({
        status: 'confirmed',
        name: 'Roter Blitz',
        carId: 'car-1',
        edition: { year: 2025, name: 'Schlosstreffen 2025' },
      }),
    ];
    await renderDashboard();
    const last = await screen.findByRole('article', { name: 'Roter Blitz' });
    expect(within(last).getByText('Schlosstreffen 2025')).toBeTruthy();
    // A record of its edition: nothing to edit, submit or withdraw; only the way into this year's.
    expect(
      within(last)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Für Schlosstreffen 2026 bewerben']);
    await user.click(within(last).getByRole('button', { name: 'Für Schlosstreffen 2026 bewerben' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Für Schlosstreffen 2026 bewerben' });
    expect(dialog.textContent).toContain('Die Bewerbung von Schlosstreffen 2025 bleibt, wie sie war.');
    // The consents are asked when the new draft is submitted, not here.
    expect(dialog.textContent).toContain('Beim Einreichen stimmen Sie den Einwilligungen');
    expect(within(dialog).queryAllByRole('checkbox')).toEqual([]);
    expect(dialog.textContent).not.toContain('Ich willige ein');
    await user.click(within(dialog).getByRole('button', { name: 'Übernehmen' }));

    expect(await findToast('Bewerbung übernommen')).toBeTruthy();
    expect(writes()).toEqual([
      { method: 'POST', url: `/api/vehicles/${vehicles[1]!.id}/reapply`, body: undefined },
    ]);
    await waitFor(() => expect(screen.getAllByRole('article', { name: 'Roter Blitz' })).toHaveLength(2));
    const [fresh, old] = screen.getAllByRole('article', { name: 'Roter Blitz' });
    expect(within(fresh!).getByRole('button', { name: 'Einreichen' })).toBeTruthy();
    expect(within(old!).queryByRole('button')).toBeNull();
    expect(within(old!).getByText('Für die aktuelle Ausgabe bereits angemeldet.')).toBeTruthy();
  });

  it("shows 'Rückzug fehlgeschlagen' with the server's message", async () => {
    const user = userEvent.setup();
    vehicles = [makeVehicle({ status: 'submitted' })];
    writeResponse = () => apiError(409, 'Abgelehnte Bewerbungen können nicht zurückgezogen werden.');
    await renderDashboard();

    await user.click(await screen.findByRole('button', { name: 'Zurückziehen' }));
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Zurückziehen' }),
    );

    const toast = await findToast('Rückzug fehlgeschlagen');
    expect(toast.textContent).toContain('Abgelehnte Bewerbungen können nicht zurückgezogen werden.');
  });

  it('deletes a draft after the dialog with DELETE and shows the empty state', async () => {
    const user = userEvent.setup();
    vehicles = [makeVehicle({ status: 'draft' })];
    const id = vehicles[0]!.id;
    await renderDashboard();

    await user.click(
      await within(await screen.findByRole('article')).findByRole('button', { name: 'Löschen' }),
    );
    const dialog = await screen.findByRole('alertdialog', { name: 'Fahrzeug löschen?' });
    expect(dialog.textContent).toContain('nicht rückgängig gemacht werden');
    expect(dialog.textContent).toContain('alle zugehörigen Daten werden dauerhaft gelöscht');

    await user.click(within(dialog).getByRole('button', { name: 'Löschen' }));

    const toast = await findToast('Fahrzeug gelöscht');
    expect(toast.textContent).toContain('Ihr Fahrzeug wurde erfolgreich gelöscht.');
    expect(writes()).toEqual([{ method: 'DELETE', url: `/api/vehicles/${id}`, body: undefined }]);
    expect(await screen.findByRole('heading', { name: 'Noch keine Fahrzeuge' })).toBeTruthy();
  });

  it("shows 'Löschen fehlgeschlagen' with the server's message and keeps the vehicle", async () => {
    const user = userEvent.setup();
    vehicles = [makeVehicle({ status: 'draft' })];
    writeResponse = () => apiError(409, 'Nur Entwürfe können gelöscht werden.');
    await renderDashboard();

    await user.click(
      await within(await screen.findByRole('article')).findByRole('button', { name: 'Löschen' }),
    );
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Löschen' }));

    const toast = await findToast('Löschen fehlgeschlagen');
    expect(toast.textContent).toContain('Nur Entwürfe können gelöscht werden.');
    expect(screen.getByRole('article', { name: 'BMW M3' })).toBeTruthy();
  });

  it('confirms an invitation with PATCH {status: confirmed} and shows start number and zone', async () => {
    const user = userEvent.setup();
    vehicles = [
      makeVehicle({
        status: 'invited',
        invitation: makeInvitation({ parkingZone: 'C' }),
      }),
    ];
    await renderDashboard();

    const article = await screen.findByRole('article', { name: 'BMW M3' });
    expect(within(article).getByText('Startnummer 7')).toBeTruthy();
    expect(within(article).getByText('Parkzone C')).toBeTruthy();

    await user.click(within(article).getByRole('button', { name: 'Teilnahme bestätigen' }));

    expect(await findToast('Teilnahme bestätigt')).toBeTruthy();
    expect(writes()).toEqual([
      { method: 'PATCH', url: `/api/vehicles/${vehicles[0]!.id}`, body: { status: 'confirmed' } },
    ]);
    expect(await within(card('BMW M3')).findByText('Bestätigt')).toBeTruthy();
  });
});
