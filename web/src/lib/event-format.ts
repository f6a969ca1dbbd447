import { eventFacts, formatAtVenue, type EventFacts, type SiteConfig } from '@schlosstreffen/shared';

/** The shared event facts of the site config, with the instants `<time dateTime>` and the countdown need. */
export interface SiteEventFacts extends EventFacts {
  startIso: string;
  endIso: string;
}

/** Formatted once per config: the header, footer and pages ask again on every render. */
const factsByConfig = new WeakMap<SiteConfig, SiteEventFacts>();

export function siteEventFacts(config: SiteConfig): SiteEventFacts {
  let facts = factsByConfig.get(config);
  if (!facts) {
    facts = {
      ...eventFacts({
        name: config.eventName,
        place: config.place,
        start: new Date(config.eventStart),
        end: new Date(config.eventEnd),
        applicationDeadline: config.applicationDeadline,
      }),
      startIso: config.eventStart,
      endIso: config.eventEnd,
    };
    factsByConfig.set(config, facts);
  }
  return facts;
}

/** The current edition's application dates as the venue's long dates ('31. März 2026'); no opening date: null. */
export function applicationDates(config: SiteConfig): { deadlineDate: string; opensOn: string | null } {
  return {
    // A calendar date: read at noon UTC, the same day at the venue.
    deadlineDate: formatAtVenue(new Date(`${config.applicationDeadline}T12:00:00Z`), 'longDate'),
    opensOn: config.applicationsOpenAt
      ? formatAtVenue(new Date(config.applicationsOpenAt), 'longDate')
      : null,
  };
}
