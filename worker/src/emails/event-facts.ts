import type { EventConfig } from '@schlosstreffen/api/core';
import { EVENT_TIMEZONE } from '@schlosstreffen/shared';

/** The event as mails print it, from configuration: the next edition needs no template change. */
export interface EventFacts {
  eventName: string;
  /** 'Samstag, 20. Juni 2026' */
  eventDate: string;
  /** '10:00 – 20:00 Uhr' */
  eventTime: string;
  place: string;
}

const dateFormat = new Intl.DateTimeFormat('de-DE', {
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: EVENT_TIMEZONE,
});
const timeFormat = new Intl.DateTimeFormat('de-DE', {
  hour: '2-digit',
  minute: '2-digit',
  timeZone: EVENT_TIMEZONE,
});

export function eventFacts(event: EventConfig): EventFacts {
  return {
    eventName: event.name,
    eventDate: dateFormat.format(event.start),
    eventTime: `${timeFormat.format(event.start)} – ${timeFormat.format(event.end)} Uhr`,
    place: event.place,
  };
}

/** The spec's event, for template previews and tests. */
export const PREVIEW_EVENT: EventFacts = {
  eventName: 'Schlosstreffen 2026',
  eventDate: 'Samstag, 20. Juni 2026',
  eventTime: '10:00 – 20:00 Uhr',
  place: 'Schlosspark, Sachsen',
};
