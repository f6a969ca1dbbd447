/**
 * The countdown's state and texts, free of React: the component renders them, and before a
 * server-rendered landing page is hydrated the ticker (countdown-ticker.ts) writes them into its
 * markup.
 */

export type CountdownState =
  | { phase: 'upcoming'; days: number; hours: number; minutes: number; seconds: number }
  | { phase: 'running' }
  | { phase: 'ended' };

/** Time left until `start`; 'running' between start and end, 'ended' afterwards (never negative numbers). */
export function countdownAt(now: number, start: number, end: number): CountdownState {
  if (now >= end) return { phase: 'ended' };
  if (now >= start) return { phase: 'running' };
  const total = Math.floor((start - now) / 1000);
  return {
    phase: 'upcoming',
    days: Math.floor(total / 86_400),
    hours: Math.floor((total % 86_400) / 3600),
    minutes: Math.floor((total % 3600) / 60),
    seconds: total % 60,
  };
}

export const COUNTDOWN_UNITS = [
  { key: 'days', label: 'Tage', singular: 'Tag' },
  { key: 'hours', label: 'Stunden', singular: 'Stunde' },
  { key: 'minutes', label: 'Minuten', singular: 'Minute' },
  { key: 'seconds', label: 'Sekunden', singular: 'Sekunde' },
] as const;

export type CountdownUnit = (typeof COUNTDOWN_UNITS)[number]['key'];
type Upcoming = Extract<CountdownState, { phase: 'upcoming' }>;

/** The two-digit figure shown for one unit. */
export const countdownDigits = (state: Upcoming, unit: CountdownUnit) => String(state[unit]).padStart(2, '0');

/** What a screen reader hears: 'Noch 3 Tage, 4 Stunden, … bis zum Start'. */
export function countdownLabel(state: Upcoming): string {
  const summary = COUNTDOWN_UNITS.map(
    ({ key, label, singular }) => `${state[key]} ${state[key] === 1 ? singular : label}`,
  ).join(', ');
  return `Noch ${summary} bis zum Start`;
}
