/**
 * Which backups stay: the newest of each of the last `daily` days and the newest of each of the last
 * `weekly` weeks (Monday to Sunday), days and weeks in the venue's time zone, counted back from the
 * moment of the rotation. Backups newer than that moment are never touched.
 */
import { EVENT_TIMEZONE } from '@schlosstreffen/shared';

export interface RotationPolicy {
  daily: number;
  weekly: number;
}

export const DEFAULT_ROTATION: RotationPolicy = { daily: 7, weekly: 4 };

/** A backup's directory name from its moment: `2026-11-27T02-30-00Z` (UTC, sortable). */
export const backupName = (at: Date) => `${at.toISOString().slice(0, 19).replaceAll(':', '-')}Z`;

/** The moment of a backup directory's name, or undefined for any other name. */
export function backupMoment(name: string): Date | undefined {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})Z$/.exec(name);
  if (!match) return undefined;
  const at = new Date(`${match[1]}T${match[2]}:${match[3]}:${match[4]}Z`);
  return Number.isNaN(at.getTime()) ? undefined : at;
}

const venueDay = new Intl.DateTimeFormat('en-CA', {
  timeZone: EVENT_TIMEZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** Days since 1970-01-01 of the venue's calendar day of a moment. */
function dayNumber(at: Date): number {
  const [y, m, d] = venueDay.format(at).split('-').map(Number);
  return Date.UTC(y!, m! - 1, d!) / 86_400_000;
}

/** Weeks since the Monday before 1970-01-01 (a Thursday). */
const weekNumber = (day: number) => Math.floor((day + 3) / 7);

/** The names to keep and to remove, of the backups named as `backupName` writes; other names are left alone. */
export function rotate(
  names: readonly string[],
  at: Date,
  policy: RotationPolicy = DEFAULT_ROTATION,
): { keep: string[]; remove: string[] } {
  const backups = names
    .map((name) => ({ name, moment: backupMoment(name) }))
    .filter((backup): backup is { name: string; moment: Date } => backup.moment !== undefined)
    .sort((a, b) => b.moment.getTime() - a.moment.getTime());
  const today = dayNumber(at);
  const thisWeek = weekNumber(today);
  const keep = new Set<string>();
  const days = new Set<number>();
  const weeks = new Set<number>();
  for (const { name, moment } of backups) {
    if (moment.getTime() > at.getTime()) {
      keep.add(name);
      continue;
    }
    const day = dayNumber(moment);
    const week = weekNumber(day);
    if (today - day < policy.daily && !days.has(day)) {
      days.add(day);
      keep.add(name);
    }
    if (thisWeek - week < policy.weekly && !weeks.has(week)) {
      weeks.add(week);
      keep.add(name);
    }
  }
  return {
    keep: backups.filter((backup) => keep.has(backup.name)).map((backup) => backup.name),
    remove: backups.filter((backup) => !keep.has(backup.name)).map((backup) => backup.name),
  };
}
