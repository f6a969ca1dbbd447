import {
  CHECK_IN_MESSAGES,
  formatEuro,
  isVisitorTicketCode,
  PAYMENT_MESSAGES,
  VISITOR_GATE_MESSAGES,
} from '@schlosstreffen/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  alreadyCheckedInText,
  bookCashPayment,
  CHECK_IN_ERRORS,
  formatCheckInTime,
  ownerName,
  submitCheckIn,
  submitVisitorScan,
  vehicleDetails,
} from './check-in-api';

afterEach(() => {
  vi.unstubAllGlobals();
});

function answer(status: number, body: unknown) {
  vi.stubGlobal(
    'fetch',
    vi.fn(() =>
      Promise.resolve(
        new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }),
      ),
    ),
  );
}

describe('check-in texts', () => {
  it('formats the check-in time as HH:MM at the venue', () => {
    expect(formatCheckInTime('2026-06-20T08:05:00.000Z')).toBe('10:05');
    expect(formatCheckInTime('2026-01-10T23:30:00.000Z')).toBe('00:30');
    expect(formatCheckInTime(null)).toBe('');
  });

  it('builds the sentence of already_checked_in from checkedInAt (HH:MM at the venue)', () => {
    expect(alreadyCheckedInText('2026-06-20T08:05:00.000Z')).toBe('Bereits eingecheckt um 10:05 Uhr');
    expect(alreadyCheckedInText('2026-06-20T07:42:00.000Z')).toBe(
      CHECK_IN_MESSAGES.already_checked_in('09:42'),
    );
    expect(alreadyCheckedInText(null)).toBe('Bereits eingecheckt');
  });

  it('names the car and its owner', () => {
    const car = { id: 'v', brand: 'BMW', model: 'M3', year: 1990, color: null, status: 'confirmed' as const };
    expect(vehicleDetails({ ...car, title: 'BMW M3' })).toBe('1990');
    expect(vehicleDetails({ ...car, title: 'Sportler', color: 'Weiß' })).toBe('BMW M3 · Weiß · 1990');
    expect(ownerName({ firstName: 'Lena', lastName: null })).toBe('Lena');
    expect(ownerName({ firstName: null, lastName: null })).toBe('Unbekannt');
    // From the gate's offline list: no year, no owner.
    expect(vehicleDetails({ ...car, year: null, title: 'Sportler' })).toBe('BMW M3');
    expect(ownerName(null)).toBe('Unbekannt');
  });
});

describe('submitCheckIn', () => {
  it('treats an overlong code like an unknown one', async () => {
    answer(400, { message: CHECK_IN_MESSAGES.unknown_code, result: 'unknown_code' });
    expect(await submitCheckIn('x'.repeat(300))).toMatchObject({
      kind: 'unknown',
      message: CHECK_IN_MESSAGES.unknown_code,
    });
  });

  it('refuses a car whose owner has not confirmed as such', async () => {
    answer(409, { message: CHECK_IN_MESSAGES.not_confirmed, result: 'not_confirmed' });
    expect(await submitCheckIn('7')).toEqual({
      kind: 'not-confirmed',
      code: '7',
      message: CHECK_IN_MESSAGES.not_confirmed,
      view: null,
    });
  });

  it("turns 409 fee_open into 'Startgeld offen' with the open amount and the car", async () => {
    const view = {
      startNumber: 12,
      parkingZone: 'B',
      checkedIn: false,
      checkedInAt: null,
      vehicle: {
        id: 'v',
        title: 'Blitz',
        brand: 'BMW',
        model: 'M3',
        year: 1990,
        color: null,
        status: 'confirmed',
      },
      owner: { firstName: 'Lena', lastName: 'Weber' },
    };
    answer(409, { result: 'fee_open', message: CHECK_IN_MESSAGES.fee_open, feeOpenCents: 1500, ...view });
    expect(await submitCheckIn('12')).toMatchObject({
      kind: 'fee-open',
      code: '12',
      message: CHECK_IN_MESSAGES.feeOpenHint(formatEuro(1500)),
      openCents: 1500,
      view: { startNumber: 12, vehicle: { title: 'Blitz' }, owner: { firstName: 'Lena' } },
    });
    // Without the amount the verdict stands, with the plain headline as its text.
    answer(409, { result: 'fee_open', message: CHECK_IN_MESSAGES.fee_open, ...view });
    expect(await submitCheckIn('12')).toMatchObject({
      kind: 'fee-open',
      message: CHECK_IN_MESSAGES.fee_open,
      openCents: null,
    });
  });

  it("shows the server's words for refusals and a retry for server faults", async () => {
    answer(403, { message: 'Keine Berechtigung' });
    expect(await submitCheckIn('1')).toMatchObject({
      kind: 'error',
      message: 'Keine Berechtigung',
      retry: false,
    });
    answer(403, {});
    expect(await submitCheckIn('1')).toMatchObject({ kind: 'error', message: CHECK_IN_ERRORS.forbidden });
    answer(502, { message: 'Bad Gateway' });
    expect(await submitCheckIn('1')).toMatchObject({
      kind: 'error',
      message: CHECK_IN_ERRORS.server,
      retry: true,
    });
  });
});

describe('bookCashPayment', () => {
  it('posts code and gate and returns the booked message', async () => {
    const booked = PAYMENT_MESSAGES.cashBooked(formatEuro(2500));
    answer(200, { message: booked });
    expect(await bookCashPayment('12', 'Tor Nord')).toEqual({ kind: 'booked', message: booked });
    const [url, init] = vi.mocked(fetch).mock.calls[0]!;
    expect(url).toBe('/api/admin/check-in/cash');
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init?.body))).toEqual({ code: '12', gate: 'Tor Nord' });
  });

  it('tells nothing open (409), a refusal and a lost connection apart', async () => {
    answer(409, { message: PAYMENT_MESSAGES.noPayment });
    expect(await bookCashPayment('12', 'Einlass')).toEqual({
      kind: 'nothing-open',
      message: PAYMENT_MESSAGES.noPayment,
    });
    answer(403, {});
    expect(await bookCashPayment('12', 'Einlass')).toEqual({
      kind: 'failed',
      message: CHECK_IN_ERRORS.forbidden,
    });
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))),
    );
    expect(await bookCashPayment('12', 'Einlass')).toEqual({
      kind: 'failed',
      message: CHECK_IN_ERRORS.cashOffline,
    });
  });
});

describe('a visitor ticket scanned at the server', () => {
  const code = `VT${'a'.repeat(30)}-_`;

  it("tells a ticket's code from a car's", () => {
    expect(isVisitorTicketCode(code)).toBe(true);
    // A car's code: 32 URL-safe characters, even one starting with VT.
    expect(isVisitorTicketCode(`VT${'a'.repeat(30)}`)).toBe(false);
    expect(isVisitorTicketCode('12')).toBe(false);
  });

  it("words the server's answer with the gate's texts", async () => {
    const state = {
      id: '20000000-0000-4000-8000-000000000001',
      ticketId: '10000000-0000-4000-8000-000000000001',
      kind: 'in',
      firstIn: '2026-06-20T07:42:00.000Z',
      firstGate: 'Tor A',
      reason: null,
    };
    answer(200, { ...state, result: 'duplicate', message: 'anders formuliert' });
    expect(await submitVisitorScan(code, 'in', 'Tor B')).toMatchObject({
      kind: 'visitor',
      result: 'duplicate',
      message: 'Bereits eingecheckt um 09:42 Uhr',
      firstGate: 'Tor A',
    });
    answer(200, { ...state, kind: 'out', result: 'not_inside', message: 'x' });
    expect(await submitVisitorScan(code, 'out')).toMatchObject({
      direction: 'out',
      result: 'not_inside',
      message: VISITOR_GATE_MESSAGES.not_inside,
    });
    answer(404, { message: VISITOR_GATE_MESSAGES.ticket_invalid });
    expect(await submitVisitorScan(code, 'in')).toMatchObject({
      kind: 'visitor',
      result: 'refused',
      reason: 'ticket_invalid',
      message: VISITOR_GATE_MESSAGES.ticket_invalid,
    });
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))),
    );
    expect(await submitVisitorScan(code, 'in')).toMatchObject({ kind: 'error', retry: true });
  });
});
