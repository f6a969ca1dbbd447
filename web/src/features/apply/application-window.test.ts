import { DEFAULT_SITE_CONFIG } from '@schlosstreffen/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { setServerSiteConfig } from '../../lib/site-config';
import { applicationsRefusal } from './application-window';

const config = (applicationsOpenAt: string | null | undefined) =>
  setServerSiteConfig({
    ...DEFAULT_SITE_CONFIG,
    applicationDeadline: '2027-03-31',
    eventStart: '2027-06-19T10:00:00+02:00',
    applicationsOpenAt,
  });

afterEach(() => setServerSiteConfig(DEFAULT_SITE_CONFIG));

describe('the application window the server states', () => {
  it('is open from its opening to the end of the deadline day at the venue', () => {
    config('2026-11-01T08:00:00.000Z');
    expect(applicationsRefusal(new Date('2027-03-31T21:59:00Z'))).toBeNull();
    expect(applicationsRefusal(new Date('2027-03-31T22:00:00Z'))).toBe(
      'Der Bewerbungsschluss für Schlosstreffen 2027 war am 31. März 2027. Neue Bewerbungen sind nicht mehr möglich.',
    );
  });

  it('names the opening while it lies ahead, and says when none is set', () => {
    config('2026-11-01T08:00:00.000Z');
    expect(applicationsRefusal(new Date('2026-10-31T12:00:00Z'))).toBe(
      'Die Bewerbung für Schlosstreffen 2027 ist noch nicht geöffnet. Bewerbungen sind ab 01.11.2026, 09:00 Uhr möglich.',
    );
    config(null);
    expect(applicationsRefusal(new Date('2026-10-31T12:00:00Z'))).toBe(
      'Die Bewerbung für Schlosstreffen 2027 ist noch nicht geöffnet. Der Termin wird noch bekannt gegeben.',
    );
  });

  it('without the server’s data block, leaves the decision to the server', () => {
    config(undefined);
    expect(applicationsRefusal(new Date('2030-01-01T00:00:00Z'))).toBeNull();
  });
});
