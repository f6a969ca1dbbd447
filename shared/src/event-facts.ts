import { eventYear } from './constants.js';
import { formatAtVenue } from './venue-time.js';

/** An event as configured: the api's event configuration and the browser's site config both give it. */
export interface EventSource {
  name: string;
  place: string;
  start: Date;
  end: Date;
  /** 'YYYY-MM-DD' */
  applicationDeadline: string;
}

/** The event as pages and mails print it, de-DE at the venue: the next edition needs no text change. */
export interface EventFacts {
  name: string;
  place: string;
  /** e.g. 'Samstag, 20. Juni 2026' */
  date: string;
  /** e.g. '20. Juni 2026' */
  shortDate: string;
  /** e.g. '10:00 – 20:00 Uhr' */
  time: string;
  year: number;
  /** Application deadline as month and year, e.g. 'März 2026'. */
  deadlineMonth: string;
}

export function eventFacts(event: EventSource): EventFacts {
  // The deadline is a calendar date: read it at noon UTC, which is the same day at the venue.
  const deadline = new Date(`${event.applicationDeadline}T12:00:00Z`);
  return {
    name: event.name,
    place: event.place,
    date: formatAtVenue(event.start, 'weekdayDate'),
    shortDate: formatAtVenue(event.start, 'longDate'),
    time: `${formatAtVenue(event.start, 'time')} – ${formatAtVenue(event.end, 'time')} Uhr`,
    year: eventYear(event.start),
    deadlineMonth: formatAtVenue(deadline, 'monthYear'),
  };
}
