import { describe, expect, it } from 'vitest';
import { backupMoment, backupName, rotate } from './rotation.js';

/** Nightly backups at 03:30 Berlin time (01:30 UTC in winter) from `first` for `nights` nights. */
function nightly(first: string, nights: number): string[] {
  const start = Date.parse(`${first}T01:30:00Z`);
  return Array.from({ length: nights }, (_, night) => backupName(new Date(start + night * 86_400_000)));
}

describe('rotation', () => {
  it('names a backup by its moment and reads the name back', () => {
    const at = new Date('2026-11-27T02:30:00.000Z');
    expect(backupName(at)).toBe('2026-11-27T02-30-00Z');
    expect(backupMoment(backupName(at))).toEqual(at);
    expect(backupMoment('erasures.jsonl')).toBeUndefined();
    expect(backupMoment('2026-11-27T02-30-00Z.partial-42')).toBeUndefined();
  });

  it('keeps the newest of each of the last 7 days and of each of the last 4 weeks, at a given moment', () => {
    // Sixty nights, 1 October to 29 November 2026; the rotation runs right after the last one.
    const names = nightly('2026-10-01', 60);
    const at = new Date('2026-11-29T01:31:00Z'); // Sunday 29 November, 02:31 in Berlin
    const { keep, remove } = rotate(names, at, { daily: 7, weekly: 4 });
    expect(keep).toEqual([
      // The last seven days, 23 to 29 November (the week of Monday 23 November is among them).
      '2026-11-29T01-30-00Z',
      '2026-11-28T01-30-00Z',
      '2026-11-27T01-30-00Z',
      '2026-11-26T01-30-00Z',
      '2026-11-25T01-30-00Z',
      '2026-11-24T01-30-00Z',
      '2026-11-23T01-30-00Z',
      // The newest of each of the three weeks before: Sundays 22, 15 and 8 November.
      '2026-11-22T01-30-00Z',
      '2026-11-15T01-30-00Z',
      '2026-11-08T01-30-00Z',
    ]);
    expect(remove).toHaveLength(50);
    expect(new Set([...keep, ...remove])).toEqual(new Set(names));
  });

  it('counts days in the venue time zone, never touches later backups or other names, and is configurable', () => {
    const names = [
      // 23:30 UTC on 26 November is 00:30 on the 27th in Berlin: the same day as the next one.
      '2026-11-26T23-30-00Z',
      '2026-11-27T10-00-00Z',
      '2026-11-25T10-00-00Z',
      // Written after the moment of the rotation (a clock set back, an --as-of in the past).
      '2026-12-01T01-30-00Z',
      'erasures.jsonl',
    ];
    const at = new Date('2026-11-27T12:00:00Z');
    expect(rotate(names, at, { daily: 1, weekly: 1 })).toEqual({
      keep: ['2026-12-01T01-30-00Z', '2026-11-27T10-00-00Z'],
      remove: ['2026-11-26T23-30-00Z', '2026-11-25T10-00-00Z'],
    });
    expect(rotate(names, at, { daily: 3, weekly: 1 }).remove).toEqual(['2026-11-26T23-30-00Z']);
  });
});
