import { describe, expect, it } from 'vitest';
import {
  EDITION_PHASE_LABELS,
  editionPhaseAt,
  isOverPhase,
  meetingDayStartsAt,
  type EditionMoments,
} from './editions.js';

/** The spec's meeting: 20 June 2026, 10:00 to 20:00 at the venue; applications until 31 March. */
const meeting: EditionMoments = {
  applicationsOpenAt: new Date('2025-12-01T09:00:00+01:00'),
  applicationDeadline: '2026-03-31',
  startsAt: new Date('2026-06-20T10:00:00+02:00'),
  endsAt: new Date('2026-06-20T20:00:00+02:00'),
  superseded: false,
};
const phaseAt = (iso: string, moments: Partial<EditionMoments> = {}) =>
  editionPhaseAt({ ...meeting, ...moments }, new Date(iso));

describe('editionPhaseAt', () => {
  it('follows the application window, the meeting day and the end at set moments', () => {
    expect(phaseAt('2025-11-01T12:00:00+01:00', { applicationsOpenAt: null })).toBe('preparation');
    expect(phaseAt('2025-12-01T08:59:59+01:00')).toBe('scheduled');
    expect(phaseAt('2025-12-01T09:00:00+01:00')).toBe('open');
    // Open to the end of the deadline's day at the venue.
    expect(phaseAt('2026-03-31T23:59:59+02:00')).toBe('open');
    expect(phaseAt('2026-04-01T00:00:00+02:00')).toBe('closed');
    expect(phaseAt('2026-06-19T23:59:59+02:00')).toBe('closed');
    // The meeting day: from 00:00 at the venue on the first day until the end.
    expect(phaseAt('2026-06-20T00:00:00+02:00')).toBe('meetingDay');
    expect(phaseAt('2026-06-20T19:59:59+02:00')).toBe('meetingDay');
    expect(phaseAt('2026-06-20T20:00:00+02:00')).toBe('over');
    expect(phaseAt('2026-11-27T12:00:00+01:00')).toBe('over');
  });

  it('archives an edition once a later one is current, which counts as over', () => {
    expect(phaseAt('2026-12-01T12:00:00+01:00', { superseded: true })).toBe('archived');
    expect(isOverPhase('archived')).toBe(true);
    expect(isOverPhase('over')).toBe(true);
    expect(isOverPhase('meetingDay')).toBe(false);
    expect(isOverPhase('closed')).toBe(false);
  });

  it('takes a configured event (no opening moment on record) as open from the start', () => {
    expect(phaseAt('2025-01-01T12:00:00+01:00', { applicationsOpenAt: undefined })).toBe('open');
  });

  it('keeps an edition without an opening moment in preparation until its meeting day', () => {
    expect(phaseAt('2026-05-01T12:00:00+02:00', { applicationsOpenAt: null })).toBe('preparation');
    expect(phaseAt('2026-06-20T08:00:00+02:00', { applicationsOpenAt: null })).toBe('meetingDay');
  });

  it("starts the meeting day at the venue's midnight, in winter time as well", () => {
    expect(meetingDayStartsAt(new Date('2026-06-20T08:00:00Z')).toISOString()).toBe(
      '2026-06-19T22:00:00.000Z',
    );
    expect(meetingDayStartsAt(new Date('2027-01-16T10:00:00Z')).toISOString()).toBe(
      '2027-01-15T23:00:00.000Z',
    );
  });

  it('labels each phase in German', () => {
    expect(Object.values(EDITION_PHASE_LABELS)).toEqual([
      'In Vorbereitung',
      'Bewerbung angekündigt',
      'Bewerbung offen',
      'Bewerbung geschlossen',
      'Veranstaltungstag',
      'Vorbei',
      'Archiviert',
    ]);
  });
});
