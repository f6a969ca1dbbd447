import { describe, expect, it } from 'vitest';
import { chunked, GATE_CLOCK_TOLERANCE_MS, venueMidnight, withinGateWindow } from './gate-window.js';

describe('the gate window', () => {
  it('opens at 00:00 at the venue, in summer and in winter time', () => {
    expect(venueMidnight(new Date('2026-06-20T08:00:00Z')).toISOString()).toBe('2026-06-19T22:00:00.000Z');
    expect(venueMidnight(new Date('2026-06-19T22:30:00Z')).toISOString()).toBe('2026-06-19T22:00:00.000Z');
    expect(venueMidnight(new Date('2027-01-15T12:00:00Z')).toISOString()).toBe('2027-01-14T23:00:00.000Z');
    // The day the clocks go forward.
    expect(venueMidnight(new Date('2027-03-28T10:00:00Z')).toISOString()).toBe('2027-03-27T23:00:00.000Z');
  });

  it('takes 15 minutes either side for device clocks, not a millisecond more', () => {
    const window = { opensAt: new Date('2026-06-19T22:00:00Z'), closesAt: new Date('2026-06-20T18:00:00Z') };
    const at = (base: Date, ms: number) => new Date(base.getTime() + ms);
    expect(GATE_CLOCK_TOLERANCE_MS).toBe(15 * 60 * 1000);
    expect(withinGateWindow(window, at(window.opensAt, -GATE_CLOCK_TOLERANCE_MS))).toBe(true);
    expect(withinGateWindow(window, at(window.opensAt, -GATE_CLOCK_TOLERANCE_MS - 1))).toBe(false);
    expect(withinGateWindow(window, at(window.closesAt, GATE_CLOCK_TOLERANCE_MS))).toBe(true);
    expect(withinGateWindow(window, at(window.closesAt, GATE_CLOCK_TOLERANCE_MS + 1))).toBe(false);
    expect(withinGateWindow(window, new Date('2000-01-01T00:00:00Z'))).toBe(false);
  });

  it('splits a queue into chunks in order', () => {
    expect(chunked([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(chunked([], 500)).toEqual([]);
  });
});
