import { describe, expect, it } from 'vitest';
import { EVENT_END_INSTANT, EVENT_START_INSTANT } from './constants.js';
import { eventFacts } from './event-facts.js';
import { DEFAULT_SITE_CONFIG } from './site-config.js';
import { formatAtVenue, venueClock, venueDate, venueDateTime, venueTime } from './venue-time.js';

describe('the venue clock', () => {
  const winter = new Date('2026-12-07T12:00:00Z');
  const summer = new Date('2026-06-20T08:05:09Z');

  it('writes every style in de-DE at the venue', () => {
    expect(formatAtVenue(winter, 'date')).toBe('07.12.2026');
    expect(formatAtVenue(winter, 'shortDate')).toBe('07.12.26');
    expect(formatAtVenue(winter, 'dateTime')).toBe('07.12.2026, 13:00');
    expect(venueDateTime(winter)).toBe('07.12.2026, 13:00 Uhr');
    expect(venueTime(summer)).toBe('10:05');
    expect(formatAtVenue(summer, 'weekdayDate')).toBe('Samstag, 20. Juni 2026');
    expect(formatAtVenue(summer, 'longDate')).toBe('20. Juni 2026');
    expect(formatAtVenue(summer, 'monthYear')).toBe('Juni 2026');
  });

  it('reads the wall clock, the day turning at the venue’s midnight', () => {
    expect(venueClock(summer)).toEqual({ year: 2026, month: 6, day: 20, hour: 10, minute: 5, second: 9 });
    expect(venueDate(new Date('2026-12-31T23:30:00Z'))).toBe('2027-01-01');
  });
});

describe('event facts', () => {
  it('print the spec’s event as pages and mails show it', () => {
    expect(
      eventFacts({
        name: 'Schlosstreffen',
        place: 'Schlosspark, Sachsen',
        start: new Date(EVENT_START_INSTANT),
        end: new Date(EVENT_END_INSTANT),
        applicationDeadline: DEFAULT_SITE_CONFIG.applicationDeadline,
      }),
    ).toEqual({
      name: 'Schlosstreffen',
      place: 'Schlosspark, Sachsen',
      date: 'Samstag, 20. Juni 2026',
      shortDate: '20. Juni 2026',
      time: '10:00 – 20:00 Uhr',
      year: 2026,
      deadlineMonth: 'März 2026',
    });
  });
});
