import { EVENT_TIMEZONE, type SiteConfig } from '@schlosstreffen/shared';

/** Event facts from the site config, formatted de-DE in the venue's time zone. */
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
  startIso: string;
  endIso: string;
}

const zone = { timeZone: EVENT_TIMEZONE } as const;

/** Formatted once per config: the header, footer and pages ask again on every render. */
const factsByConfig = new WeakMap<SiteConfig, EventFacts>();

export function eventFacts(config: SiteConfig): EventFacts {
  let facts = factsByConfig.get(config);
  if (!facts) {
    facts = formatEventFacts(config);
    factsByConfig.set(config, facts);
  }
  return facts;
}

function formatEventFacts(config: SiteConfig): EventFacts {
  const start = new Date(config.eventStart);
  const end = new Date(config.eventEnd);
  const time = new Intl.DateTimeFormat('de-DE', { ...zone, hour: '2-digit', minute: '2-digit' });
  // The deadline is a calendar date: read it at noon UTC so no time zone moves it to another month.
  const deadline = new Date(`${config.applicationDeadline}T12:00:00Z`);
  return {
    name: config.eventName,
    place: config.place,
    date: new Intl.DateTimeFormat('de-DE', {
      ...zone,
      weekday: 'long',
      day: 'numeric',
      month: 'long',
      year: 'numeric',
    }).format(start),
    shortDate: new Intl.DateTimeFormat('de-DE', {
      ...zone,
      day: 'numeric',
      month: 'long',
      year: 'numeric',
    }).format(start),
    time: `${time.format(start)} – ${time.format(end)} Uhr`,
    year: Number(new Intl.DateTimeFormat('en-US', { ...zone, year: 'numeric' }).format(start)),
    deadlineMonth: new Intl.DateTimeFormat('de-DE', {
      timeZone: 'UTC',
      month: 'long',
      year: 'numeric',
    }).format(deadline),
    startIso: config.eventStart,
    endIso: config.eventEnd,
  };
}
