import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import {
  CHECK_IN_MESSAGES,
  formatEuro,
  PAYMENT_MESSAGES,
  VISITOR_GATE_MESSAGES,
} from '@schlosstreffen/shared';
import { act, screen, waitFor, within } from '@testing-library/react';
import * as fakeIndexedDb from 'fake-indexeddb';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  mockApi,
  renderAt,
  setupScreenTests,
  SIGNED_IN_USER,
  type Handlers,
} from '../../test/screen-helpers';
import type {
  CheckInView,
  GateEntryData,
  GateList,
  GateSyncResult,
  GateTicketEntry,
  GateTicketsData,
  GateVisitorScanState,
} from '@schlosstreffen/shared/api';
import { CHECK_IN_ERRORS } from './check-in-api';
import { clearGate } from './gate-store';
import { CAMERA_MESSAGES } from './qr-scanner';

/** The jsQR stand-in, and how often the page loaded the module (it should only on demand). */
const jsqr = vi.hoisted(() => ({ decode: vi.fn(() => ({ data: 'QR-AUS-JSQR' })), loads: 0 }));
vi.mock('jsqr', () => {
  jsqr.loads += 1;
  return { default: jsqr.decode };
});

setupScreenTests();

const ADMIN = { ...SIGNED_IN_USER, role: 'admin', email: 'admin@schlosstreffen.de', firstName: 'Thomas' };

const VIEW: CheckInView = {
  startNumber: 12,
  parkingZone: 'B',
  checkedIn: true,
  checkedInAt: '2026-06-20T08:05:00.000Z',
  vehicle: {
    id: 'v-1',
    title: 'Rotkäppchen',
    brand: 'Volkswagen',
    model: 'Golf I GTI',
    year: 1982,
    color: 'Marsrot',
    status: 'confirmed',
  },
  owner: { firstName: 'Jonas', lastName: 'Hartmann' },
};

const checkedIn = () => ({ status: 200, body: { result: 'checked_in', message: 'Eingecheckt', ...VIEW } });

function api(checkIn: Handlers[string]) {
  return mockApi({
    'GET /api/auth/user': () => ({ body: ADMIN }),
    'POST /api/admin/check-in': checkIn,
  });
}

const checkInPosts = (calls: { method: string; path: string; body: unknown }[]) =>
  calls.filter((call) => call.method === 'POST' && call.path === '/api/admin/check-in');

async function openPage() {
  await renderAt('/admin/check-in');
  return screen.findByRole('heading', { level: 1, name: 'Check-in' });
}

const codeInput = () => screen.getByLabelText('Check-in-Code oder Startnummer');

async function typeAndSubmit(text: string) {
  const user = userEvent.setup();
  await user.type(codeInput(), text);
  await user.click(screen.getByRole('button', { name: 'Einchecken' }));
  return user;
}

const result = () => document.querySelector<HTMLElement>('[data-result]');
const liveRegion = () => document.querySelector('[aria-live="assertive"]');

let vibrate: ReturnType<typeof vi.fn>;

beforeEach(() => {
  sessionStorage.clear();
  vibrate = vi.fn(() => true);
  Object.defineProperty(navigator, 'vibrate', { value: vibrate, configurable: true });
});

afterEach(() => {
  Reflect.deleteProperty(navigator, 'vibrate');
  Reflect.deleteProperty(navigator, 'mediaDevices');
  Reflect.deleteProperty(window, 'isSecureContext');
});

describe('check-in by typing', () => {
  it('sends the trimmed code and shows the checked-in car big, in the live region and the recent list', async () => {
    const { calls } = api(checkedIn);
    await openPage();
    expect(document.title).toBe('Check-in – Schlosstreffen');
    expect(document.querySelector('meta[name="description"]')?.getAttribute('content')).toContain('QR-Code');
    expect(screen.getByText('Noch keine Check-ins in dieser Sitzung.')).toBeTruthy();

    await typeAndSubmit('   37Cr11jAiva2Rm  ');

    const panel = await waitFor(() => result() ?? Promise.reject(new Error('no result')));
    expect(panel.dataset.result).toBe('checked-in');
    expect(checkInPosts(calls).map((call) => call.body)).toEqual([{ code: '37Cr11jAiva2Rm' }]);
    const view = within(panel);
    expect(view.getByRole('heading', { name: 'Eingecheckt' })).toBeTruthy();
    expect(view.getByText('12')).toBeTruthy();
    expect(view.getByText('B')).toBeTruthy();
    expect(view.getByText('Rotkäppchen')).toBeTruthy();
    expect(view.getByText('Volkswagen Golf I GTI · Marsrot · 1982')).toBeTruthy();
    expect(view.getByText('Jonas Hartmann')).toBeTruthy();
    expect(liveRegion()?.textContent).toBe(
      'Eingecheckt. Startnummer 12, Parkzone B. Rotkäppchen, Jonas Hartmann.',
    );
    expect(vibrate).toHaveBeenCalledWith(120);
    // A found car clears the box for the next one.
    expect((codeInput() as HTMLInputElement).value).toBe('');

    const recent = within(screen.getByRole('region', { name: 'Zuletzt eingecheckt' }));
    const entry = recent.getByRole('listitem');
    expect(entry.textContent).toContain('10:05');
    expect(entry.textContent).toContain('Startnummer 12');
    expect(entry.textContent).toContain('Rotkäppchen');
  });

  it('shows an already checked-in car in amber with the time of the first check-in (HH:MM at the venue)', async () => {
    api(() => ({
      status: 409,
      // A message in another wording: the page builds the sentence from checkedInAt.
      body: {
        result: 'already_checked_in',
        message: 'Konflikt',
        ...VIEW,
        checkedInAt: '2026-06-20T07:42:10.000Z',
      },
    }));
    await openPage();
    await typeAndSubmit('12');

    const panel = await waitFor(() => result() ?? Promise.reject(new Error('no result')));
    expect(panel.dataset.result).toBe('already');
    const view = within(panel);
    expect(view.getByRole('heading', { name: 'Bereits eingecheckt um 09:42 Uhr' })).toBeTruthy();
    expect(view.getByText('12')).toBeTruthy();
    expect(view.getByText('B')).toBeTruthy();
    expect(view.getByText('Rotkäppchen')).toBeTruthy();
    expect(view.getByText('Jonas Hartmann')).toBeTruthy();
    expect(liveRegion()?.textContent).toContain('Bereits eingecheckt um 09:42 Uhr');
    expect(vibrate).toHaveBeenCalledWith([90, 60, 90]);
    // Not a new check-in: the recent list stays empty.
    expect(screen.getByText('Noch keine Check-ins in dieser Sitzung.')).toBeTruthy();
  });

  it("shows an unknown code in red with the server's message and keeps the input for correction", async () => {
    api(() => ({ status: 404, body: { message: CHECK_IN_MESSAGES.unknown_code } }));
    await openPage();
    await typeAndSubmit('9999');

    const panel = await waitFor(() => result() ?? Promise.reject(new Error('no result')));
    expect(panel.dataset.result).toBe('unknown');
    expect(within(panel).getByRole('heading', { name: 'Unbekannter Code' })).toBeTruthy();
    expect(
      within(panel).getByText('Unbekannter Check-in-Code oder Startnummer. Bitte prüfe die Eingabe.'),
    ).toBeTruthy();
    expect(within(panel).getByText('9999')).toBeTruthy();
    expect((codeInput() as HTMLInputElement).value).toBe('9999');
    expect(vibrate).toHaveBeenCalledWith([250, 100, 250]);
  });

  it('explains a vehicle that is no longer invited, and a lost connection with a retry', async () => {
    let reply: () => { status: number; body: unknown } | Promise<never> = () => ({
      status: 409,
      body: { message: CHECK_IN_MESSAGES.not_admitted },
    });
    const { calls } = api(() => reply());
    await openPage();
    const user = await typeAndSubmit('7');

    let panel = await waitFor(() => result() ?? Promise.reject(new Error('no result')));
    expect(panel.dataset.result).toBe('error');
    expect(within(panel).getByRole('heading', { name: 'Check-in nicht möglich' })).toBeTruthy();
    expect(within(panel).getByText(CHECK_IN_MESSAGES.not_admitted)).toBeTruthy();
    expect(within(panel).queryByRole('button', { name: 'Erneut versuchen' })).toBeNull();

    await user.click(within(panel).getByRole('button', { name: 'Nächstes Fahrzeug' }));
    reply = () => Promise.reject(new TypeError('Failed to fetch'));
    await typeAndSubmit('8');
    panel = await waitFor(() => result() ?? Promise.reject(new Error('no result')));
    expect(within(panel).getByRole('heading', { name: 'Keine Verbindung' })).toBeTruthy();
    expect(
      within(panel).getByText(
        'Der Server ist nicht erreichbar. Bitte prüfe die Internetverbindung und versuche es erneut.',
      ),
    ).toBeTruthy();

    reply = checkedIn;
    await user.click(within(panel).getByRole('button', { name: 'Erneut versuchen' }));
    await waitFor(() => expect(result()?.dataset.result).toBe('checked-in'));
    expect(checkInPosts(calls).map((call) => call.body)).toEqual([
      { code: '7' },
      { code: '8' },
      { code: '8' },
    ]);
  });

  it("'Nächstes Fahrzeug' clears the result and returns to the input", async () => {
    api(checkedIn);
    await openPage();
    const user = await typeAndSubmit('12');
    await waitFor(() => expect(result()).not.toBeNull());

    await user.click(screen.getByRole('button', { name: 'Nächstes Fahrzeug' }));
    expect(result()).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Eingecheckt' })).toBeNull();
    expect(liveRegion()?.textContent).toBe('');
    expect(document.activeElement).toBe(codeInput());
    // The recent list keeps what was done.
    expect(
      within(screen.getByRole('region', { name: 'Zuletzt eingecheckt' })).getAllByRole('listitem'),
    ).toHaveLength(1);
  });

  it('asks for a code instead of sending an empty one, and shows the progress label while sending', async () => {
    let release!: () => void;
    const { calls } = api(
      () =>
        new Promise((resolve) => {
          release = () => resolve(checkedIn());
        }),
    );
    await openPage();
    const user = userEvent.setup();
    await user.type(codeInput(), '   ');
    await user.click(screen.getByRole('button', { name: 'Einchecken' }));
    expect(await screen.findByText(CHECK_IN_MESSAGES.codeRequired)).toBeTruthy();
    expect(codeInput().getAttribute('aria-invalid')).toBe('true');
    expect(checkInPosts(calls)).toHaveLength(0);

    await user.clear(codeInput());
    await user.type(codeInput(), '12');
    await user.click(screen.getByRole('button', { name: 'Einchecken' }));
    const pending = await screen.findByRole('button', { name: 'Prüfe...' });
    expect((pending as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText('Prüfe Code...')).toBeTruthy();
    release();
    await waitFor(() => expect(result()?.dataset.result).toBe('checked-in'));
    expect(screen.getByRole('button', { name: 'Einchecken' })).toBeTruthy();
  });
});

describe('check-in by camera', () => {
  function fakeCamera(getUserMedia: () => Promise<unknown>) {
    Object.defineProperty(navigator, 'mediaDevices', {
      value: { getUserMedia: vi.fn(getUserMedia) },
      configurable: true,
    });
    vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
    vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(() => undefined);
    vi.spyOn(HTMLMediaElement.prototype, 'readyState', 'get').mockReturnValue(4);
    return navigator.mediaDevices.getUserMedia as unknown as ReturnType<typeof vi.fn>;
  }

  function fakeStream() {
    const track = { stop: vi.fn(), addEventListener: vi.fn() };
    const stream = { getTracks: () => [track], getVideoTracks: () => [track] };
    return { track, stream };
  }

  it('reads a code with BarcodeDetector, sends it once however often it is seen, and stops the camera', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { calls } = api(checkedIn);
    const { track, stream } = fakeStream();
    const getUserMedia = fakeCamera(() => Promise.resolve(stream));
    const detect = vi.fn(() => Promise.resolve([{ rawValue: ' QR-CODE-1 ' }]));
    const formats = vi.fn(() => Promise.resolve(['ean_13', 'qr_code']));
    const created: unknown[] = [];
    vi.stubGlobal(
      'BarcodeDetector',
      class {
        static getSupportedFormats = formats;
        constructor(options: unknown) {
          created.push(options);
        }
        detect = detect;
      },
    );
    await openPage();
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });

    await user.click(screen.getByRole('button', { name: 'Kamera starten' }));
    expect(await screen.findByRole('button', { name: 'Kamera stoppen' })).toBeTruthy();
    expect(getUserMedia).toHaveBeenCalledWith({ video: { facingMode: 'environment' }, audio: false });
    expect(created).toEqual([{ formats: ['qr_code'] }]);

    await waitFor(() => expect(result()?.dataset.result).toBe('checked-in'));
    // The code stays in view for a while: still one check-in.
    await vi.advanceTimersByTimeAsync(8000);
    expect(detect.mock.calls.length).toBeGreaterThan(3);
    expect(checkInPosts(calls).map((call) => call.body)).toEqual([{ code: 'QR-CODE-1' }]);
    expect(jsqr.decode).not.toHaveBeenCalled();

    // Dismissing the result while the code is still in view does not send it again either.
    await user.click(screen.getByRole('button', { name: 'Nächstes Fahrzeug' }));
    expect(result()).toBeNull();
    await vi.advanceTimersByTimeAsync(3000);
    expect(checkInPosts(calls)).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: 'Kamera stoppen' }));
    expect(track.stop).toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Kamera starten' })).toBeTruthy();
    const readsAfterStop = detect.mock.calls.length;
    await vi.advanceTimersByTimeAsync(2000);
    expect(detect.mock.calls.length).toBe(readsAfterStop);
  });

  it('turns the camera off when leaving the page', async () => {
    api(checkedIn);
    const { track, stream } = fakeStream();
    fakeCamera(() => Promise.resolve(stream));
    vi.stubGlobal(
      'BarcodeDetector',
      class {
        detect = () => Promise.resolve([]);
      },
    );
    const { router } = await renderAt('/admin/check-in');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Kamera starten' }));
    await screen.findByRole('button', { name: 'Kamera stoppen' });
    expect(track.stop).not.toHaveBeenCalled();

    await router.navigate({ href: '/gibt-es-nicht' });
    expect(await screen.findByRole('heading', { level: 1, name: '404 Page Not Found' })).toBeTruthy();
    await waitFor(() => expect(track.stop).toHaveBeenCalled());
  });

  it('explains a refused camera permission', async () => {
    api(checkedIn);
    fakeCamera(() => Promise.reject(new DOMException('Permission denied', 'NotAllowedError')));
    // (With BarcodeDetector, so jsQR stays unloaded for the fallback test below.)
    vi.stubGlobal(
      'BarcodeDetector',
      class {
        detect = () => Promise.resolve([]);
      },
    );
    await openPage();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Kamera starten' }));

    expect((await screen.findByRole('alert')).textContent).toBe(CAMERA_MESSAGES.denied);
    expect(CAMERA_MESSAGES.denied).toContain('Zugriff auf die Kamera wurde verweigert');
    expect(screen.getByRole('button', { name: 'Kamera starten' })).toBeTruthy();
  });

  it('explains that the camera needs HTTPS, and a device without a camera', async () => {
    api(checkedIn);
    const getUserMedia = fakeCamera(() => Promise.reject(new DOMException('none', 'NotFoundError')));
    vi.stubGlobal(
      'BarcodeDetector',
      class {
        detect = () => Promise.resolve([]);
      },
    );
    Object.defineProperty(window, 'isSecureContext', { value: false, configurable: true });
    await openPage();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Kamera starten' }));
    expect((await screen.findByRole('alert')).textContent).toBe(CAMERA_MESSAGES.insecure);
    expect(CAMERA_MESSAGES.insecure).toContain('HTTPS');
    expect(getUserMedia).not.toHaveBeenCalled();

    Object.defineProperty(window, 'isSecureContext', { value: true, configurable: true });
    await user.click(screen.getByRole('button', { name: 'Kamera starten' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(CAMERA_MESSAGES['not-found']));
  });

  it('falls back to jsQR on a downscaled frame when the browser has no BarcodeDetector', async () => {
    const { calls } = api(checkedIn);
    const { stream } = fakeStream();
    fakeCamera(() => Promise.resolve(stream));
    vi.spyOn(HTMLVideoElement.prototype, 'videoWidth', 'get').mockReturnValue(1280);
    vi.spyOn(HTMLVideoElement.prototype, 'videoHeight', 'get').mockReturnValue(720);
    const drawImage = vi.fn();
    const getImageData = vi.fn((_x: number, _y: number, width: number, height: number) => ({
      data: new Uint8ClampedArray(width * height * 4),
    }));
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue({
      drawImage,
      getImageData,
    } as unknown as CanvasRenderingContext2D);
    expect('BarcodeDetector' in globalThis).toBe(false);

    await openPage();
    // Not part of the page: fetched when scanning starts without BarcodeDetector.
    expect(jsqr.loads).toBe(0);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Kamera starten' }));

    await waitFor(() => expect(result()?.dataset.result).toBe('checked-in'));
    expect(checkInPosts(calls).map((call) => call.body)).toEqual([{ code: 'QR-AUS-JSQR' }]);
    expect(drawImage).toHaveBeenCalledWith(expect.any(HTMLVideoElement), 0, 0, 640, 360);
    expect(jsqr.loads).toBe(1);
    expect(jsqr.decode).toHaveBeenCalledWith(expect.any(Uint8ClampedArray), 640, 360, {
      inversionAttempts: 'dontInvert',
    });
  });
});

const BOOKED = PAYMENT_MESSAGES.cashBooked(formatEuro(2500));

/** The 409 of a car whose fee is open, as the api answers it. */
const feeOpen = () => ({
  status: 409,
  body: {
    result: 'fee_open',
    message: CHECK_IN_MESSAGES.fee_open,
    feeOpenCents: 2500,
    ...VIEW,
    checkedIn: false,
    checkedInAt: null,
  },
});

/** Text as the screen shows it (formatEuro's non-breaking space read as a space). */
const spaced = (text: string) => text.replace(/\s+/g, ' ');

const cashPosts = (calls: { method: string; path: string; body: unknown }[]) =>
  calls.filter((call) => call.method === 'POST' && call.path === '/api/admin/check-in/cash');

describe("'Startgeld offen' at the online gate", () => {
  it("shows the open fee with the car, books 'Bar bezahlt' at this gate and then checks the car in", async () => {
    const replies = [feeOpen, checkedIn];
    const { calls } = mockApi({
      'GET /api/auth/user': () => ({ body: ADMIN }),
      'POST /api/admin/check-in': () => replies.shift()!(),
      'POST /api/admin/check-in/cash': () => ({ body: { message: BOOKED } }),
    });
    await openPage();
    const user = await typeAndSubmit('12');

    const panel = await waitFor(() => result() ?? Promise.reject(new Error('no result')));
    expect(panel.dataset.result).toBe('fee-open');
    const view = within(panel);
    expect(view.getByRole('heading', { name: 'Startgeld offen' })).toBeTruthy();
    expect(view.getByText(spaced(CHECK_IN_MESSAGES.feeOpenHint(formatEuro(2500))))).toBeTruthy();
    expect(view.getByText('Rotkäppchen')).toBeTruthy();
    expect(view.getByText('Jonas Hartmann')).toBeTruthy();
    expect(liveRegion()?.textContent).toContain('Startgeld offen. Noch offen: 25,00');
    expect(vibrate).toHaveBeenCalledWith([250, 100, 250]);
    // Not let in: nothing in the recent list, no cash booked yet.
    expect(screen.getByText('Noch keine Check-ins in dieser Sitzung.')).toBeTruthy();
    expect(cashPosts(calls)).toEqual([]);

    await user.click(view.getByRole('button', { name: 'Bar bezahlt' }));

    await waitFor(() => expect(result()?.dataset.result).toBe('checked-in'));
    expect(cashPosts(calls).map((call) => call.body)).toEqual([{ code: '12', gate: 'Einlass' }]);
    expect(checkInPosts(calls).map((call) => call.body)).toEqual([{ code: '12' }, { code: '12' }]);
    const done = within(result()!);
    expect(done.getByRole('heading', { name: 'Eingecheckt' })).toBeTruthy();
    expect(done.getByTestId('check-in-note').textContent).toBe(BOOKED);
    expect(liveRegion()?.textContent).toBe(
      `${BOOKED} Eingecheckt. Startnummer 12, Parkzone B. Rotkäppchen, Jonas Hartmann.`,
    );
    expect(
      within(screen.getByRole('region', { name: 'Zuletzt eingecheckt' })).getAllByRole('listitem'),
    ).toHaveLength(1);
  });

  it('keeps the verdict with the reason when the booking fails, and does not check the car in', async () => {
    let cash: () => { status: number; body: unknown } | Promise<never> = () =>
      Promise.reject(new TypeError('Failed to fetch'));
    const { calls } = mockApi({
      'GET /api/auth/user': () => ({ body: ADMIN }),
      'POST /api/admin/check-in': feeOpen,
      'POST /api/admin/check-in/cash': () => cash(),
    });
    await openPage();
    const user = await typeAndSubmit('12');
    await waitFor(() => expect(result()?.dataset.result).toBe('fee-open'));

    await user.click(within(result()!).getByRole('button', { name: 'Bar bezahlt' }));
    await waitFor(() =>
      expect(within(result()!).getByRole('alert').textContent).toBe(CHECK_IN_ERRORS.cashOffline),
    );
    expect(result()?.dataset.result).toBe('fee-open');

    cash = () => ({ status: 403, body: { message: 'Keine Berechtigung für die Kasse.' } });
    await user.click(within(result()!).getByRole('button', { name: 'Bar bezahlt' }));
    await waitFor(() =>
      expect(within(result()!).getByRole('alert').textContent).toBe('Keine Berechtigung für die Kasse.'),
    );
    expect(cashPosts(calls)).toHaveLength(2);
    // Refused bookings do not check the car in.
    expect(checkInPosts(calls)).toHaveLength(1);
    expect(result()?.dataset.result).toBe('fee-open');
  });
});

const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const spki = publicKey.export({ format: 'der', type: 'spki' });
const PUBLIC_KEY = spki.subarray(spki.length - 32).toString('base64');

function gateEntry(feeOpenCents: number): GateEntryData {
  return {
    id: '00000000-0000-4000-8000-000000000012',
    startNumber: 12,
    name: 'Rotkäppchen',
    brand: 'Volkswagen',
    model: 'Golf I GTI',
    color: 'Marsrot',
    zone: 'B',
    codeHash: createHash('sha256').update('code-12').digest('hex'),
    confirmed: true,
    feeOpenCents,
    checkedInAt: null,
    gate: null,
    validUntil: '2030-06-21T18:00:00.000Z',
  };
}

function signedList(entries: GateEntryData[]): GateList {
  return {
    publicKey: PUBLIC_KEY,
    cursor: new Date().toISOString(),
    delta: false,
    entries: entries.map((data) => {
      const json = JSON.stringify(data);
      return { data: json, sig: sign(null, Buffer.from(json), privateKey).toString('base64') };
    }),
    removed: [],
    total: entries.length,
    expiresAt: '2030-06-21T18:00:00.000Z',
    tickets: null,
  };
}

/** IndexedDB for the tests of a describe (jsdom has none): the gate keeps its list on the device. */
function deviceStorage() {
  beforeEach(() => {
    const { indexedDB: _shared, IDBFactory, ...types } = fakeIndexedDb;
    vi.stubGlobal('indexedDB', new IDBFactory());
    for (const [name, type] of Object.entries(types)) {
      if (name.startsWith('IDB')) vi.stubGlobal(name, type);
    }
  });

  afterEach(async () => {
    Reflect.deleteProperty(navigator, 'onLine');
    await clearGate();
  });
}

describe("'Startgeld offen' from the list on the device", () => {
  deviceStorage();

  it("refuses the car without queueing a scan; offline 'Bar bezahlt' waits, online it books under the gate's name, reads the list again and lets it in", async () => {
    let open = 2500;
    const synced: unknown[][] = [];
    const { calls } = mockApi({
      'GET /api/auth/user': () => ({ body: ADMIN }),
      'GET /api/admin/check-in/list': () => ({ body: signedList([gateEntry(open)]) }),
      'POST /api/admin/check-in/sync': (body) => {
        const scans = (body as { scans: Array<{ id: string; invitationId: string }> }).scans;
        synced.push(scans);
        return {
          body: {
            scans: scans.map((scan) => ({
              ...scan,
              result: 'admitted',
              checkedInAt: null,
              gate: 'Tor Nord',
              reason: null,
              message: 'Eingecheckt',
            })),
            visitorScans: [],
            cursor: new Date().toISOString(),
          } satisfies GateSyncResult,
        };
      },
      'POST /api/admin/check-in/cash': () => {
        open = 0;
        return { body: { message: BOOKED } };
      },
    });
    await openPage();
    // Reading and verifying the signed list takes a moment.
    await waitFor(() => expect(screen.getByTestId('gate-list').textContent).toContain('1 Fahrzeuge'), {
      timeout: 5000,
    });
    const user = userEvent.setup();
    const gateName = screen.getByLabelText('Name dieses Einlasses');
    await user.clear(gateName);
    await user.type(gateName, 'Tor Nord');
    await user.click(screen.getByRole('button', { name: 'Speichern' }));

    await typeAndSubmit('code-12');
    await waitFor(() => expect(result()?.dataset.result).toBe('fee-open'));
    const panel = within(result()!);
    expect(panel.getByRole('heading', { name: 'Startgeld offen' })).toBeTruthy();
    expect(panel.getByText(spaced(CHECK_IN_MESSAGES.feeOpenHint(formatEuro(2500))))).toBeTruthy();
    expect(panel.getByText('Rotkäppchen')).toBeTruthy();
    // The device decided: nothing asked at the server, nothing waiting to be sent.
    expect(checkInPosts(calls)).toEqual([]);
    expect(screen.getByTestId('gate-pending').textContent).toBe('0 Scans');

    // Without a connection the booking cannot be made: the button says so and waits.
    const setOnline = (online: boolean) => {
      Object.defineProperty(navigator, 'onLine', { value: online, configurable: true });
      act(() => {
        window.dispatchEvent(new Event(online ? 'online' : 'offline'));
      });
    };
    setOnline(false);
    const button = panel.getByRole('button', { name: 'Bar bezahlt' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(panel.getByText(CHECK_IN_ERRORS.cashOffline)).toBeTruthy();
    // Back online the gate reads its list again and sends its queue; then the booking is made.
    const listReads = () => calls.filter((call) => call.path === '/api/admin/check-in/list').length;
    const readsBefore = listReads();
    setOnline(true);
    await waitFor(() => expect(button.disabled).toBe(false));
    await waitFor(() => expect(listReads()).toBe(readsBefore + 1));
    await waitFor(() => expect(calls.at(-1)?.path).toBe('/api/admin/check-in/sync'));

    await user.click(button);

    await waitFor(() => expect(result()?.dataset.result).toBe('checked-in'));
    expect(cashPosts(calls).map((call) => call.body)).toEqual([{ code: 'code-12', gate: 'Tor Nord' }]);
    expect(within(result()!).getByTestId('check-in-note').textContent).toBe(BOOKED);
    // The list was read again after the booking.
    const bookedAt = calls.findIndex((call) => call.path === '/api/admin/check-in/cash');
    expect(calls.slice(bookedAt).some((call) => call.path === '/api/admin/check-in/list')).toBe(true);
    // Let in on the device as usual: its scan goes to the server with the next sync.
    expect(checkInPosts(calls)).toEqual([]);
    await waitFor(() => expect(synced.flat()).toHaveLength(1));
    expect(synced.flat()[0]).toMatchObject({ invitationId: '00000000-0000-4000-8000-000000000012' });
  });
});

/** A visitor ticket's code ('VT' and 32 URL-safe characters). */
const ticketCode = (n: number) => `VT${String(n).padStart(32, 'q')}`;

function gateTicket(n: number, overrides: Partial<GateTicketEntry> = {}): GateTicketEntry {
  return {
    id: `10000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    hash: createHash('sha256').update(ticketCode(n)).digest('hex'),
    firstIn: null,
    firstGate: null,
    inside: false,
    last: null,
    ...overrides,
  };
}

function listWithTickets(tickets: GateTicketEntry[], exitScanning: boolean): GateList {
  const data: GateTicketsData = {
    editionId: 'edition-2030',
    exitScanning,
    capacity: 500,
    entries: tickets,
    removed: [],
    total: tickets.length,
    validUntil: '2030-06-21T18:00:00.000Z',
  };
  const json = JSON.stringify(data);
  return {
    ...signedList([gateEntry(0)]),
    tickets: { data: json, sig: sign(null, Buffer.from(json), privateKey).toString('base64') },
  };
}

/** A gate whose list holds these tickets; its sync takes every visitor scan as the device counted it. */
function ticketGate(list: GateList) {
  const synced: Array<{ ticketId: string | null; kind: string }> = [];
  const api = mockApi({
    'GET /api/auth/user': () => ({ body: ADMIN }),
    'GET /api/admin/check-in/list': () => ({ body: list }),
    'POST /api/admin/check-in/sync': (body) => {
      const visitorScans = (body as { visitorScans: GateVisitorScanState[] }).visitorScans;
      synced.push(...visitorScans);
      return {
        body: {
          scans: [],
          visitorScans: visitorScans.map((scan) => ({
            ...scan,
            result: 'admitted',
            firstIn: null,
            firstGate: null,
            reason: null,
            message: VISITOR_GATE_MESSAGES.admitted,
          })),
          cursor: new Date().toISOString(),
        } satisfies GateSyncResult,
      };
    },
    'POST /api/admin/check-in/visitor': () => ({
      status: 404,
      body: { message: VISITOR_GATE_MESSAGES.ticket_invalid },
    }),
  });
  return { ...api, synced };
}

async function openWithTickets(count: number) {
  await openPage();
  await waitFor(
    () =>
      expect(screen.getByTestId('gate-tickets').textContent).toContain(
        count === 1 ? '1 Besucherticket' : `${count} Besuchertickets`,
      ),
    { timeout: 5000 },
  );
}

const visitorPosts = (calls: { method: string; path: string; body: unknown }[]) =>
  calls.filter((call) => call.method === 'POST' && call.path === '/api/admin/check-in/visitor');

async function scanTicket(text: string) {
  await typeAndSubmit(text);
  return waitFor(() => {
    const panel = result();
    if (!panel) throw new Error('no result');
    return panel;
  });
}

async function next() {
  await userEvent.setup().click(screen.getByRole('button', { name: 'Nächster Scan' }));
}

describe('visitor tickets at the gate', () => {
  deviceStorage();

  it('lets a ticket in from the list (green), says when it came in on the second scan (amber), refuses an unknown ticket (red)', async () => {
    const { calls, synced } = ticketGate(listWithTickets([gateTicket(1), gateTicket(2)], false));
    await openWithTickets(2);
    // No exit scanning: no switch, but the day's till.
    expect(screen.queryByRole('button', { name: 'Ausgang' })).toBeNull();
    expect(screen.queryByRole('group', { name: 'Besuchertickets scannen am' })).toBeNull();
    expect(screen.getByRole('button', { name: VISITOR_GATE_MESSAGES.walkInButton })).toBeTruthy();

    let panel = await scanTicket(ticketCode(1));
    expect(panel.dataset.result).toBe('visitor');
    expect(panel.dataset.visitorResult).toBe('admitted');
    expect(within(panel).getByRole('heading', { name: VISITOR_GATE_MESSAGES.admitted })).toBeTruthy();
    expect(within(panel).getByText('Eingang')).toBeTruthy();
    expect(liveRegion()?.textContent).toBe('Besucher eingelassen. Besucherticket, Eingang.');
    expect(vibrate).toHaveBeenLastCalledWith(120);
    expect((codeInput() as HTMLInputElement).value).toBe('');
    // Decided on the device, sent with the sync.
    expect(checkInPosts(calls)).toEqual([]);
    expect(visitorPosts(calls)).toEqual([]);
    await waitFor(() => expect(synced).toMatchObject([{ ticketId: gateTicket(1).id, kind: 'in' }]));

    await next();
    panel = await scanTicket(ticketCode(1));
    expect(panel.dataset.visitorResult).toBe('duplicate');
    const heading = within(panel).getByRole('heading', { level: 2 }).textContent ?? '';
    expect(heading).toMatch(/^Bereits eingecheckt um \d\d:\d\d Uhr$/);
    expect(within(panel).getByText('Erster Einlass')).toBeTruthy();
    expect(vibrate).toHaveBeenLastCalledWith([90, 60, 90]);

    // Not on the list: asked at the server, which does not know it either.
    await next();
    panel = await scanTicket(ticketCode(9));
    expect(visitorPosts(calls).map((call) => call.body)).toEqual([
      { code: ticketCode(9), kind: 'in', gate: 'Einlass' },
    ]);
    expect(panel.dataset.visitorResult).toBe('refused');
    expect(within(panel).getByRole('heading', { name: 'Ungültiges Besucherticket' })).toBeTruthy();
    expect(within(panel).getByText(VISITOR_GATE_MESSAGES.ticket_invalid)).toBeTruthy();
    expect(vibrate).toHaveBeenLastCalledWith([250, 100, 250]);
    // A code to correct stays in the box.
    expect((codeInput() as HTMLInputElement).value).toBe(ticketCode(9));
  });

  it("with exit scanning shows 'Eingang'/'Ausgang': out, not in, and back in", async () => {
    // In at another gate, before this device's scans (which the device replays on top).
    const inside = gateTicket(1, {
      firstIn: '2020-06-20T07:30:00.000Z',
      firstGate: 'Tor B',
      inside: true,
      last: '2020-06-20T07:30:00.000Z',
    });
    const { synced } = ticketGate(listWithTickets([inside], true));
    await openWithTickets(1);
    const entrance = screen.getByRole('button', { name: 'Eingang' });
    const exit = screen.getByRole('button', { name: 'Ausgang' });
    expect(entrance.getAttribute('aria-pressed')).toBe('true');
    expect(exit.getAttribute('aria-pressed')).toBe('false');

    await userEvent.setup().click(exit);
    expect(exit.getAttribute('aria-pressed')).toBe('true');
    expect(entrance.getAttribute('aria-pressed')).toBe('false');
    let panel = await scanTicket(ticketCode(1));
    expect(panel.dataset.visitorResult).toBe('exited');
    expect(within(panel).getByRole('heading', { name: VISITOR_GATE_MESSAGES.exited })).toBeTruthy();
    expect(within(panel).getByText('Ausgang')).toBeTruthy();

    await next();
    panel = await scanTicket(ticketCode(1));
    expect(panel.dataset.visitorResult).toBe('not_inside');
    expect(within(panel).getByRole('heading', { name: 'Kein Eingang erfasst' })).toBeTruthy();
    expect(within(panel).getByText(VISITOR_GATE_MESSAGES.not_inside)).toBeTruthy();
    expect(vibrate).toHaveBeenLastCalledWith([250, 100, 250]);

    await next();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Eingang' }));
    panel = await scanTicket(ticketCode(1));
    expect(panel.dataset.visitorResult).toBe('readmitted');
    expect(within(panel).getByRole('heading', { name: VISITOR_GATE_MESSAGES.readmitted })).toBeTruthy();
    // A car comes in, whichever way the switch stands.
    await next();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Ausgang' }));
    panel = await scanTicket('12');
    expect(panel.dataset.result).toBe('checked-in');
    await waitFor(() => expect(synced.map((scan) => scan.kind)).toEqual(['out', 'in']));
  });

  it("counts '+1 Tageskasse' offline and sends it once back online", async () => {
    const { synced } = ticketGate(listWithTickets([gateTicket(1)], false));
    await openWithTickets(1);
    Object.defineProperty(navigator, 'onLine', { value: false, configurable: true });
    act(() => {
      window.dispatchEvent(new Event('offline'));
    });

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: VISITOR_GATE_MESSAGES.walkInButton }));
    expect((await screen.findByText(VISITOR_GATE_MESSAGES.walkIn)).getAttribute('role')).toBe('status');
    await waitFor(() => expect(screen.getByTestId('gate-pending-visitors').textContent).toBe('1 wartet'));
    expect(synced).toEqual([]);

    Object.defineProperty(navigator, 'onLine', { value: true, configurable: true });
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    await waitFor(() => expect(synced).toMatchObject([{ ticketId: null, kind: 'walk_in' }]));
    await waitFor(() => expect(screen.getByTestId('gate-pending-visitors').textContent).toBe('0 warten'));
  });
});

describe('a visitor ticket at a gate without a list', () => {
  it('is scanned at the server, which records it', async () => {
    const { calls } = mockApi({
      'GET /api/auth/user': () => ({ body: ADMIN }),
      'POST /api/admin/check-in/visitor': () => ({
        body: {
          id: '20000000-0000-4000-8000-000000000001',
          ticketId: '10000000-0000-4000-8000-000000000001',
          kind: 'in',
          result: 'admitted',
          firstIn: '2026-06-20T08:00:00.000Z',
          firstGate: 'Einlass',
          reason: null,
          message: 'Besucher eingelassen',
        } satisfies GateVisitorScanState,
      }),
    });
    await openPage();
    // Without a list the gate does not know whether the edition has tickets.
    expect(screen.queryByRole('button', { name: VISITOR_GATE_MESSAGES.walkInButton })).toBeNull();
    const panel = await scanTicket(ticketCode(3));
    expect(panel.dataset.visitorResult).toBe('admitted');
    expect(within(panel).getByRole('heading', { name: VISITOR_GATE_MESSAGES.admitted })).toBeTruthy();
    expect(visitorPosts(calls).map((call) => call.body)).toEqual([{ code: ticketCode(3), kind: 'in' }]);
    expect(checkInPosts(calls)).toEqual([]);
  });
});
