import {
  SUBMISSION_CONSENT_KINDS,
  CONSENTS,
  DEFAULT_SITE_CONFIG,
  type SiteConfig,
  type VehicleStatus,
} from '@schlosstreffen/shared';
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
import { resetAppClock } from '../../lib/app-clock';

/** The page's site config: the spec's 2026 meeting (deadline 31 March) as the server wrote it at `now`. */
const site = vi.hoisted(() => ({ config: undefined as SiteConfig | undefined }));
vi.mock('../../lib/site-config', () => ({ getSiteConfig: () => site.config }));

const writtenAt = (now: string, changes: Partial<SiteConfig> = {}): SiteConfig => ({
  ...DEFAULT_SITE_CONFIG,
  applicationsOpenAt: '2025-12-01T09:00:00+01:00',
  now: new Date(now).toISOString(),
  ...changes,
});
/** While the 2026 applications are open. */
const APPLYING = writtenAt('2026-03-02T12:00:00+01:00');

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
  site.config = APPLYING;
  resetAppClock();
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

    const delays = within(screen.getByRole('list', { name: 'Schlosstreffen 2026' }))
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
      SUBMISSION_CONSENT_KINDS.map((kind) => `${CONSENTS[kind].text} *`),
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
    expect(within(screen.getByRole('region', { name: 'Schlosstreffen 2025' })).getByRole('article')).toBe(
      last,
    );
    // A record of its edition: nothing to edit, submit or withdraw; only the way into this year's.
    expect(
      within(last)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Ansehen', 'Für Schlosstreffen 2026 bewerben']);
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
    // The new draft stands under this year's edition, above the record.
    const [fresh, old] = screen.getAllByRole('article', { name: 'Roter Blitz' });
    expect(within(screen.getByRole('region', { name: 'Schlosstreffen 2026' })).getByRole('article')).toBe(
      fresh,
    );
    expect(within(fresh!).getByRole('button', { name: 'Einreichen' })).toBeTruthy();
    expect(
      within(old!)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Ansehen']);
    expect(within(old!).getByText('Für Schlosstreffen 2026 bereits angemeldet.')).toBeTruthy();
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

/** The card's buttons and links, as the owner sees them. */
const actionsOf = (name: string) =>
  within(card(name))
    .queryAllByRole('button')
    .map((button) => button.textContent);
const editLinkOf = (name: string) => within(card(name)).queryByRole('link', { name: `${name} bearbeiten` });
const outcomeOf = (name: string) => within(card(name)).getByTestId('outcome').textContent;

const EDITION_2025 = { year: 2025, name: 'Schlosstreffen 2025', phase: 'archived' as const };
const EDITION_2026 = { year: 2026, name: 'Schlosstreffen 2026' };
const CHECKED_IN = makeInvitation({ checkedIn: true, checkedInAt: '2025-06-21T08:07:00.000Z' });

describe('/dashboard by edition and phase', () => {
  it('groups the applications by edition, the newest first', async () => {
    vehicles = [
      makeVehicle({
        id: '00000000-0000-4000-8000-000000000001',
        name: 'Alt',
        edition: { ...EDITION_2025, year: 2024, name: 'Schlosstreffen 2024' },
      }),
      makeVehicle({ id: '00000000-0000-4000-8000-000000000002', name: 'Neu', edition: EDITION_2026 }),
      makeVehicle({ id: '00000000-0000-4000-8000-000000000003', name: 'Mittel', edition: EDITION_2025 }),
    ];
    await renderDashboard();
    await screen.findByRole('article', { name: 'Neu' });

    expect(
      screen
        .getAllByRole('heading', { level: 2, name: /^Schlosstreffen/ })
        .map((heading) => heading.textContent),
    ).toEqual(['Schlosstreffen 2026', 'Schlosstreffen 2025', 'Schlosstreffen 2024']);
    expect(
      within(screen.getByRole('list', { name: 'Schlosstreffen 2025' }))
        .getByRole('article')
        .getAttribute('aria-label'),
    ).toBe('Mittel');
    expect(
      within(screen.getByRole('region', { name: 'Schlosstreffen 2026' })).getByText(
        'Bewerbung offen bis 31. März 2026',
      ),
    ).toBeTruthy();
    expect(
      within(screen.getByRole('region', { name: 'Schlosstreffen 2024' })).getByText(
        'Vorbei: Ihre Bewerbungen bleiben, wie sie waren.',
      ),
    ).toBeTruthy();
    // The cards' titles stand under their edition's heading.
    expect(screen.getByRole('heading', { level: 3, name: 'Neu' })).toBeTruthy();
  });

  it("shows what each application of a past edition came to, with 'Ansehen' and the way into this year's edition only", async () => {
    const past = (id: number, name: string, changes: Parameters<typeof makeVehicle>[0]) =>
      makeVehicle({
        id: `00000000-0000-4000-8000-00000000001${id}`,
        carId: `car-${id}`,
        name,
        edition: EDITION_2025,
        ...changes,
      });
    vehicles = [
      past(0, 'Dabei', { status: 'confirmed', invitation: CHECKED_IN }),
      past(1, 'Ausgeblieben', { status: 'confirmed', invitation: makeInvitation() }),
      past(2, 'Wartend', { status: 'waitlist' }),
      past(3, 'Abgelehnt', { status: 'rejected' }),
      past(4, 'Abgesagt', {
        status: 'rejected',
        invitation: makeInvitation({ releasedAt: '2025-05-01T10:00:00.000Z', releaseReason: 'declined' }),
      }),
      past(5, 'Offen geblieben', { status: 'in_review' }),
      past(6, 'Nur Entwurf', { status: 'draft' }),
      past(7, 'Eingeladen', { status: 'invited', invitation: makeInvitation() }),
    ];
    await renderDashboard();
    await screen.findByRole('article', { name: 'Dabei' });

    expect(outcomeOf('Dabei')).toBe('Dabei beim Schlosstreffen 2025Eingecheckt am 21.06.2025, 10:07 Uhr');
    expect(outcomeOf('Ausgeblieben')).toBe('Nicht erschienenTeilnahme am Schlosstreffen 2025 war bestätigt');
    expect(outcomeOf('Wartend')).toContain('Warteliste');
    expect(outcomeOf('Abgelehnt')).toBe('Abgelehnt');
    expect(outcomeOf('Abgesagt')).toBe('Teilnahme abgesagt');
    expect(outcomeOf('Offen geblieben')).toContain('Ohne Entscheidung');
    expect(outcomeOf('Nur Entwurf')).toBe('Nicht eingereicht');
    expect(outcomeOf('Eingeladen')).toBe('Einladung nicht bestätigt');
    // A lapsed request to confirm is not repeated.
    expect(within(card('Eingeladen')).queryByText(/Bitte bestätigen bis/)).toBeNull();

    for (const name of [
      'Dabei',
      'Ausgeblieben',
      'Wartend',
      'Abgelehnt',
      'Abgesagt',
      'Offen geblieben',
      'Eingeladen',
    ]) {
      expect(actionsOf(name), name).toEqual(['Ansehen', 'Für Schlosstreffen 2026 bewerben']);
      expect(editLinkOf(name), name).toBeNull();
    }
    expect(actionsOf('Nur Entwurf')).toEqual(['Ansehen', 'Für Schlosstreffen 2026 übernehmen']);
  });

  it("shows an application 'Ansehen' as it stands, read only", async () => {
    const user = userEvent.setup();
    vehicles = [
      makeVehicle({
        name: 'Roter Blitz',
        status: 'confirmed',
        edition: EDITION_2025,
        invitation: CHECKED_IN,
        descriptionLong: 'Vollrestauriert, mit Rennfahrwerk.',
      }),
    ];
    await renderDashboard();

    await user.click(await screen.findByRole('button', { name: 'Roter Blitz ansehen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Roter Blitz' });
    expect(dialog.textContent).toContain('Schlosstreffen 2025 · Bestätigt · Dabei beim Schlosstreffen 2025');
    expect(within(dialog).getByText('Vollrestauriert, mit Rennfahrwerk.')).toBeTruthy();
    expect(within(dialog).getByText('238 PS')).toBeTruthy();
    expect(within(dialog).queryByRole('textbox')).toBeNull();
    // Escape closes the dialog once it holds the focus (it takes it on open, a frame later).
    await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), { timeout: 5000 });
    expect(writes()).toEqual([]);
  });

  it('after the meeting, while no later edition is current: the outcome, no decline, and a draft waits for the next edition', async () => {
    site.config = writtenAt('2026-11-27T12:00:00+01:00');
    const over = { ...EDITION_2026, phase: 'over' as const };
    vehicles = [
      makeVehicle({
        id: '00000000-0000-4000-8000-000000000021',
        name: 'Rote Zora',
        status: 'confirmed',
        edition: over,
        invitation: makeInvitation({ checkedIn: true, checkedInAt: '2026-06-20T08:07:00.000Z' }),
      }),
      makeVehicle({
        id: '00000000-0000-4000-8000-000000000022',
        name: 'Civic',
        status: 'draft',
        edition: over,
      }),
      makeVehicle({
        id: '00000000-0000-4000-8000-000000000023',
        name: 'Wartend',
        status: 'submitted',
        edition: over,
      }),
    ];
    await renderDashboard();
    await screen.findByRole('article', { name: 'Rote Zora' });

    expect(outcomeOf('Rote Zora')).toContain('Dabei beim Schlosstreffen 2026');
    for (const name of ['Rote Zora', 'Civic', 'Wartend']) expect(actionsOf(name), name).toEqual(['Ansehen']);
    expect(
      screen.queryByRole('button', { name: /Teilnahme absagen|Zurückziehen|Einreichen|Löschen/ }),
    ).toBeNull();
    expect(screen.queryByRole('link', { name: /bearbeiten/ })).toBeNull();
    expect(
      within(card('Civic')).getByText(
        'Sobald die Bewerbung für das nächste Treffen öffnet, können Sie den Entwurf übernehmen.',
      ),
    ).toBeTruthy();
    // No new application for an edition that is over.
    expect(screen.queryByRole('link', { name: /Fahrzeug anmelden/ })).toBeNull();
  });

  it('after the deadline: a draft can only be deleted; submitted ones may still withdraw, invited ones decline', async () => {
    const user = userEvent.setup();
    site.config = writtenAt('2026-05-01T12:00:00+02:00');
    const closed = { ...EDITION_2026, phase: 'closed' as const };
    vehicles = [
      makeVehicle({
        id: '00000000-0000-4000-8000-000000000031',
        name: 'Entwurf',
        status: 'draft',
        edition: closed,
      }),
      makeVehicle({
        id: '00000000-0000-4000-8000-000000000032',
        name: 'Eingereicht',
        status: 'submitted',
        edition: closed,
      }),
      makeVehicle({
        id: '00000000-0000-4000-8000-000000000033',
        name: 'Bestätigt',
        status: 'confirmed',
        edition: closed,
        invitation: makeInvitation(),
      }),
    ];
    await renderDashboard();
    await screen.findByRole('article', { name: 'Entwurf' });

    expect(actionsOf('Entwurf')).toEqual(['Löschen']);
    expect(editLinkOf('Entwurf')).toBeNull();
    expect(
      within(card('Entwurf')).getByText(
        'Bewerbungsschluss war am 31. März 2026; dieser Entwurf kann nicht mehr eingereicht werden.',
      ),
    ).toBeTruthy();
    expect(actionsOf('Eingereicht')).toEqual(['Zurückziehen']);
    expect(editLinkOf('Eingereicht')).toBeTruthy();
    expect(actionsOf('Bestätigt')).toEqual(['Windschild herunterladen', 'Teilnahme absagen', 'Zurückziehen']);
    expect(screen.queryByRole('link', { name: /Fahrzeug anmelden/ })).toBeNull();
    expect(
      within(screen.getByRole('region', { name: 'Schlosstreffen 2026' })).getByText(
        'Bewerbungsschluss für Schlosstreffen 2026 war am 31. März 2026.',
      ),
    ).toBeTruthy();

    await user.click(within(card('Eingereicht')).getByRole('button', { name: 'Zurückziehen' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Bewerbung zurückziehen?' });
    expect(dialog.textContent).toContain(
      'nach dem Bewerbungsschluss (31. März 2026) nicht erneut eingereicht werden',
    );
  });

  it("before the next edition's applications open: its drafts wait to be sent, last year's cars wait for the opening, drafts carry over", async () => {
    site.config = writtenAt('2026-12-01T12:00:00+01:00', {
      eventStart: '2027-06-19T08:00:00.000Z',
      eventEnd: '2027-06-19T18:00:00.000Z',
      applicationDeadline: '2027-03-31',
      applicationsOpenAt: '2027-01-15T09:00:00+01:00',
      lookBackYear: 2026,
    });
    const archived = { ...EDITION_2026, phase: 'archived' as const };
    vehicles = [
      makeVehicle({
        id: '00000000-0000-4000-8000-000000000041',
        carId: 'zora',
        name: 'Zora 2027',
        status: 'draft',
        edition: { year: 2027, name: 'Schlosstreffen 2027', phase: 'scheduled' },
      }),
      makeVehicle({
        id: '00000000-0000-4000-8000-000000000042',
        carId: 'zora',
        name: 'Zora',
        status: 'confirmed',
        edition: archived,
        invitation: CHECKED_IN,
      }),
      makeVehicle({
        id: '00000000-0000-4000-8000-000000000043',
        carId: 'blitz',
        name: 'Blitz',
        status: 'confirmed',
        edition: archived,
        invitation: CHECKED_IN,
      }),
      makeVehicle({
        id: '00000000-0000-4000-8000-000000000044',
        carId: 'civic',
        name: 'Civic',
        status: 'draft',
        edition: archived,
      }),
    ];
    await renderDashboard();
    await screen.findByRole('article', { name: 'Zora 2027' });

    expect(actionsOf('Zora 2027')).toEqual(['Löschen']);
    expect(editLinkOf('Zora 2027')).toBeTruthy();
    expect(within(card('Zora 2027')).getByText('Einreichen ab 15. Januar 2027.')).toBeTruthy();
    expect(actionsOf('Zora')).toEqual(['Ansehen']);
    expect(within(card('Zora')).getByText('Für Schlosstreffen 2027 bereits angemeldet.')).toBeTruthy();
    expect(actionsOf('Blitz')).toEqual(['Ansehen']);
    expect(
      within(card('Blitz')).getByText('Die Bewerbung für Schlosstreffen 2027 öffnet am 15. Januar 2027.'),
    ).toBeTruthy();
    expect(actionsOf('Civic')).toEqual(['Ansehen', 'Für Schlosstreffen 2027 übernehmen']);
  });
});

describe('the windshield sign on /dashboard', () => {
  it('is offered for a confirmed car holding its place; pressing it renders the sign and saves it', async () => {
    vehicles = [
      makeVehicle({
        id: '00000000-0000-4000-8000-000000000041',
        name: 'Mit Schild',
        status: 'confirmed',
        invitation: makeInvitation(),
      }),
      makeVehicle({
        id: '00000000-0000-4000-8000-000000000042',
        name: 'Eingeladen',
        status: 'invited',
        invitation: makeInvitation(),
      }),
    ];
    const queued = {
      id: 'e0000000-0000-4000-8000-000000000001',
      format: 'a4',
      formatLabel: 'A4 quer, ein Schild je Seite',
      vehicleId: '00000000-0000-4000-8000-000000000041',
      status: 'queued',
      statusLabel: 'In Warteschlange',
      progress: 0,
      signCount: 0,
      downloadName: 'Windschild-2026-Nr-7.pdf',
      downloadUrl: null,
      error: null,
      createdAt: '2026-04-01T10:00:00.000Z',
      finishedAt: null,
    };
    const ready = {
      ...queued,
      status: 'ready',
      signCount: 1,
      downloadUrl:
        '/objects/exports/signs/e0000000-0000-4000-8000-000000000001.pdf?download=Windschild-2026-Nr-7.pdf',
    };
    const signCalls: string[] = [];
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      if (!url.endsWith('/sign')) return fetchMock(input, init);
      const method = init?.method ?? 'GET';
      signCalls.push(`${method} ${url}`);
      return method === 'POST' ? json(queued, 202) : json(ready);
    });
    const saved: { href: string; download: string }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ href: this.getAttribute('href') ?? '', download: this.download });
    });
    await renderDashboard();
    await screen.findByRole('article', { name: 'Mit Schild' });
    expect(within(card('Eingeladen')).queryByRole('button', { name: /Windschild/ })).toBeNull();

    const user = userEvent.setup();
    await user.click(
      within(card('Mit Schild')).getByRole('button', { name: 'Windschild herunterladen (Mit Schild)' }),
    );
    expect(await within(card('Mit Schild')).findByText('Windschild wird erstellt...')).toBeTruthy();
    await waitFor(() => expect(saved).toHaveLength(1), { timeout: 4000 });
    expect(saved[0]).toEqual({ href: ready.downloadUrl, download: 'Windschild-2026-Nr-7.pdf' });
    expect(signCalls).toEqual([
      'POST /api/vehicles/00000000-0000-4000-8000-000000000041/sign',
      'GET /api/vehicles/00000000-0000-4000-8000-000000000041/sign',
    ]);
  });
});

describe("/dashboard and the jury's places", () => {
  it("shows a car's published places on its card, beside what the application came to", async () => {
    vehicles = [
      makeVehicle({
        id: '00000000-0000-4000-8000-000000000031',
        name: 'Sieger',
        status: 'confirmed',
        edition: EDITION_2025,
        invitation: CHECKED_IN,
        juryPlaces: [
          { place: 1, className: 'Bester Umbau', year: 2025 },
          { place: 3, className: 'Best of Show', year: 2025 },
        ],
      }),
      makeVehicle({
        id: '00000000-0000-4000-8000-000000000032',
        name: 'Ohne Platz',
        status: 'confirmed',
        edition: EDITION_2025,
        invitation: CHECKED_IN,
      }),
    ];
    await renderDashboard();
    await screen.findByRole('article', { name: 'Sieger' });

    const places = within(card('Sieger')).getByRole('list', { name: 'Jury-Platzierungen' });
    expect(
      within(places)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['1. Platz – Bester Umbau 2025', '3. Platz – Best of Show 2025']);
    expect(outcomeOf('Sieger')).toBe('Dabei beim Schlosstreffen 2025Eingecheckt am 21.06.2025, 10:07 Uhr');
    expect(within(card('Ohne Platz')).queryByRole('list', { name: 'Jury-Platzierungen' })).toBeNull();
  });
});

describe("the fee ('Startgeld') on /dashboard", () => {
  it('shows the transfer with its GiroCode on an invited car, a paid fee as paid, and nothing without a fee', async () => {
    const payTo = { accountHolder: 'Schlosstreffen e. V.', iban: 'DE89370400440532013000', bic: null };
    vehicles = [
      makeVehicle({
        id: '00000000-0000-4000-8000-000000000051',
        name: 'Offen',
        status: 'invited',
        invitation: makeInvitation(),
        payment: {
          status: 'open',
          reference: 'ST26-K7Q2P-K',
          amountCents: 2500,
          paidCents: 0,
          dueAt: '2026-04-29T08:00:00.000Z',
          payTo,
        },
      }),
      makeVehicle({
        id: '00000000-0000-4000-8000-000000000052',
        name: 'Bezahlt',
        status: 'confirmed',
        invitation: makeInvitation({ startNumber: 8 }),
        payment: {
          status: 'paid',
          reference: 'ST26-M3R4S-T',
          amountCents: 2500,
          paidCents: 2500,
          dueAt: '2026-04-29T08:00:00.000Z',
          payTo: null,
        },
      }),
      makeVehicle({
        id: '00000000-0000-4000-8000-000000000053',
        name: 'Ohne Gebühr',
        status: 'confirmed',
        invitation: makeInvitation({ startNumber: 9 }),
        payment: null,
      }),
    ];
    await renderDashboard();
    await screen.findByRole('article', { name: 'Offen' });

    const open = within(within(card('Offen')).getByRole('region', { name: 'Startgeld' }));
    expect(open.getByText('Offen', { selector: 'span' })).toBeTruthy();
    expect(open.getByText('DE89 3704 0044 0532 0130 00')).toBeTruthy();
    expect(open.getByText('ST26-K7Q2P-K')).toBeTruthy();
    expect(open.getByText('29.04.2026, 10:00 Uhr')).toBeTruthy();
    expect(
      open.getByRole('img', { name: 'GiroCode für die Überweisung des Startgelds' }).getAttribute('src'),
    ).toBe('/api/vehicles/00000000-0000-4000-8000-000000000051/girocode.svg');
    // Beside the invitation's own actions.
    expect(within(card('Offen')).getByRole('button', { name: 'Teilnahme bestätigen' })).toBeTruthy();

    const paid = within(within(card('Bezahlt')).getByRole('region', { name: 'Startgeld' }));
    expect(paid.getByText('Dein Startgeld ist eingegangen. Danke!')).toBeTruthy();
    expect(paid.queryByRole('img')).toBeNull();

    expect(within(card('Ohne Gebühr')).queryByRole('region', { name: 'Startgeld' })).toBeNull();
  });
});
