import { eventFacts, type EventFacts, type SiteConfig } from '@schlosstreffen/shared';

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
