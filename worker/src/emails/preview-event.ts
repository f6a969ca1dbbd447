import {
  DEFAULT_SITE_CONFIG,
  EVENT_END_INSTANT,
  EVENT_START_INSTANT,
  eventFacts,
} from '@schlosstreffen/shared';

/** The spec's event (Samstag, 20. Juni 2026, 10:00 – 20:00 Uhr), for template previews and tests. */
export const PREVIEW_EVENT = eventFacts({
  name: 'Schlosstreffen 2026',
  place: DEFAULT_SITE_CONFIG.place,
  start: new Date(EVENT_START_INSTANT),
  end: new Date(EVENT_END_INSTANT),
  applicationDeadline: DEFAULT_SITE_CONFIG.applicationDeadline,
});
