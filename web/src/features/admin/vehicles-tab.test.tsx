import { describe, expect, it } from 'vitest';
import { makeMedia, makeVehicle } from '../vehicles/vehicle-fixtures';
import { countMedia } from './admin-queries';
import { STATUS_FILTERS } from './dashboard-search';
import {
  applicationsCsvUrl,
  countByFilter,
  filterLabel,
  matchesFilter,
  matchesSearch,
  staggerDelay,
} from './vehicles-tab';

describe('Fahrzeuge tab helpers', () => {
  it('matches brand or model case-insensitively as a substring; an empty query matches all', () => {
    const vehicle = { brand: 'Mercedes-Benz', model: '190 E 2.5-16 Evolution II' };
    expect(matchesSearch(vehicle, 'mercedes')).toBe(true);
    expect(matchesSearch(vehicle, 'BENZ')).toBe(true);
    expect(matchesSearch(vehicle, 'evolution')).toBe(true);
    expect(matchesSearch(vehicle, '  2.5-16 ')).toBe(true);
    expect(matchesSearch(vehicle, '')).toBe(true);
    expect(matchesSearch(vehicle, 'Porsche')).toBe(false);
    expect(matchesSearch({ brand: 'Škoda', model: 'Ä-Klasse' }, 'ä-kl')).toBe(true);
  });

  it('has the spec tabs in order with German labels; drafts only under Alle', () => {
    expect(STATUS_FILTERS.map(filterLabel)).toEqual([
      'Alle',
      'Eingereicht',
      'In Prüfung',
      'Warteliste',
      'Eingeladen',
      'Bestätigt',
      'Abgelehnt',
    ]);
    const draft = { status: 'draft' as const };
    expect(matchesFilter(draft, 'all')).toBe(true);
    expect(STATUS_FILTERS.filter((filter) => matchesFilter(draft, filter))).toEqual(['all']);
    const counts = countByFilter([
      draft,
      { status: 'submitted' },
      { status: 'submitted' },
      { status: 'rejected' },
    ]);
    expect(counts).toEqual({
      all: 4,
      submitted: 2,
      in_review: 0,
      waitlist: 0,
      invited: 0,
      confirmed: 0,
      rejected: 1,
    });
  });

  it('staggers by 0.05 s per card, capped for long lists', () => {
    expect([0, 1, 2, 3].map(staggerDelay)).toEqual(['0.00s', '0.05s', '0.10s', '0.15s']);
    expect(staggerDelay(200)).toBe(staggerDelay(24));
  });

  it('counts the media over all vehicles for the Medien tab', () => {
    expect(countMedia([])).toBe(0);
    expect(
      countMedia([
        makeVehicle({ media: [makeMedia({ id: 'a' }), makeMedia({ id: 'b' })] }),
        makeVehicle({ media: [] }),
        makeVehicle({ media: [makeMedia({ id: 'c' })] }),
      ]),
    ).toBe(3);
  });
});

describe('CSV export link', () => {
  it('carries the status tab and the trimmed search', () => {
    expect(applicationsCsvUrl('all', '')).toBe('/api/admin/vehicles.csv?status=all');
    expect(applicationsCsvUrl('waitlist', '  Golf GTI ')).toBe(
      '/api/admin/vehicles.csv?status=waitlist&q=Golf+GTI',
    );
  });
});
