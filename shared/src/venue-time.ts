import { EVENT_TIMEZONE } from './constants.js';

/**
 * Instants as the venue's clock shows them (de-DE, EVENT_TIMEZONE): the one place api, worker and
 * web turn a date into text. Each formatter is made on first use and kept.
 */

const VENUE_STYLES = {
  /** '07.12.2026' */
  date: { day: '2-digit', month: '2-digit', year: 'numeric' },
  /** '07.12.26' */
  shortDate: { day: '2-digit', month: '2-digit', year: '2-digit' },
  /** '07.12.2026, 13:00' */
  dateTime: { day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit' },
  /** '13:00' */
  time: { hour: '2-digit', minute: '2-digit' },
  /** 'Samstag, 20. Juni 2026' */
  weekdayDate: { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' },
  /** '20. Juni 2026' */
  longDate: { day: 'numeric', month: 'long', year: 'numeric' },
  /** 'Juni 2026' */
  monthYear: { month: 'long', year: 'numeric' },
} as const satisfies Record<string, Intl.DateTimeFormatOptions>;

export type VenueStyle = keyof typeof VENUE_STYLES;

const venueFormats = new Map<VenueStyle, Intl.DateTimeFormat>();

/** The instant in one of the venue's styles, e.g. `formatAtVenue(date, 'dateTime')` → '07.12.2026, 13:00'. */
export function formatAtVenue(date: Date, style: VenueStyle): string {
  let format = venueFormats.get(style);
  if (!format) {
    format = new Intl.DateTimeFormat('de-DE', { timeZone: EVENT_TIMEZONE, ...VENUE_STYLES[style] });
    venueFormats.set(style, format);
  }
  return format.format(date);
}

/** e.g. '07.12.2026, 13:00 Uhr' at the venue: deadlines in mails, the status log and exports. */
export function venueDateTime(date: Date): string {
  return `${formatAtVenue(date, 'dateTime')} Uhr`;
}

/** HH:MM at the venue: check-in times at the gate and on the 'Einlass' board. */
export function venueTime(date: Date): string {
  return formatAtVenue(date, 'time');
}

/** The wall clock at the venue as numbers: month 1–12, hour 0–23. */
export interface VenueClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

let clockFormat: Intl.DateTimeFormat | undefined;

/** What the venue's wall clock shows at this instant. */
export function venueClock(date: Date): VenueClock {
  clockFormat ??= new Intl.DateTimeFormat('en-GB', {
    timeZone: EVENT_TIMEZONE,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  });
  const part = Object.fromEntries(
    clockFormat.formatToParts(date).map(({ type, value }) => [type, Number(value)]),
  );
  return {
    year: part.year!,
    month: part.month!,
    day: part.day!,
    hour: part.hour!,
    minute: part.minute!,
    second: part.second!,
  };
}

/** The instant at which the venue's wall clock shows this date and time. */
export function venueInstant({ year, month, day, hour, minute, second }: VenueClock): Date {
  const guess = Date.UTC(year, month - 1, day, hour, minute, second);
  const clock = venueClock(new Date(guess));
  const wall = Date.UTC(clock.year, clock.month - 1, clock.day, clock.hour, clock.minute, clock.second);
  return new Date(guess - (wall - guess));
}

/** The same date and wall-clock time at the venue, `years` later. */
export function venueYearsLater(date: Date, years: number): Date {
  const clock = venueClock(date);
  return venueInstant({ ...clock, year: clock.year + years });
}

/** Two digits, zero-padded. */
export const twoDigits = (value: number) => String(value).padStart(2, '0');

/** YYYY-MM-DD of the instant at the venue (file names of downloads). */
export function venueDate(date: Date): string {
  const { year, month, day } = venueClock(date);
  return `${year}-${twoDigits(month)}-${twoDigits(day)}`;
}
