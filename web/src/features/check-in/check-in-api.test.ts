import { CHECK_IN_MESSAGES } from '@schlosstreffen/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  alreadyCheckedInText,
  CHECK_IN_ERRORS,
  formatCheckInTime,
  ownerName,
  submitCheckIn,
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
