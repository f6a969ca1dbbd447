import { describe, expect, it } from 'vitest';
import { adminVehiclesUrl } from './admin-queries';
import { parseDashboardSearch, STATUS_FILTERS } from './dashboard-search';
import { applicationsCsvUrl, filterLabel, SORT_OPTIONS, staggerDelay } from './vehicles-tab';

describe('Fahrzeuge tab helpers', () => {
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
    expect(STATUS_FILTERS).not.toContain('draft');
  });

  it('staggers by 0.05 s per card, capped for long lists', () => {
    expect([0, 1, 2, 3].map(staggerDelay)).toEqual(['0.00s', '0.05s', '0.10s', '0.15s']);
    expect(staggerDelay(200)).toBe(staggerDelay(24));
  });

  it('asks the server for the filter, the trimmed search, the sort and the next page', () => {
    expect(adminVehiclesUrl({ status: 'all', q: '' })).toBe('/api/admin/vehicles');
    expect(adminVehiclesUrl({ status: 'all', q: '   ' })).toBe('/api/admin/vehicles');
    expect(adminVehiclesUrl({ status: 'waitlist', q: ' Golf GTI ' })).toBe(
      '/api/admin/vehicles?status=waitlist&q=Golf+GTI',
    );
    expect(adminVehiclesUrl({ status: 'all', q: '', sort: 'brand' }, 'abc_-1')).toBe(
      '/api/admin/vehicles?sort=brand&cursor=abc_-1',
    );
  });
});

describe('sort order', () => {
  it('offers the server’s orders, newest first as the default', () => {
    expect(SORT_OPTIONS.map((option) => [option.value, option.label])).toEqual([
      ['newest', 'Neueste zuerst'],
      ['oldest', 'Älteste zuerst'],
      ['brand', 'Marke A–Z'],
    ]);
  });

  it('keeps a known sort other than the default in the URL and drops anything else', () => {
    expect(parseDashboardSearch({ sort: 'brand' })).toEqual({ sort: 'brand' });
    expect(parseDashboardSearch({ sort: 'oldest', status: 'waitlist' })).toEqual({
      sort: 'oldest',
      status: 'waitlist',
    });
    // Strictly: a dropped key is there as undefined, so it replaces the raw value.
    for (const sort of ['newest', 'zufall', 3]) {
      expect(parseDashboardSearch({ sort })).toStrictEqual({
        tab: undefined,
        status: undefined,
        q: undefined,
        sort: undefined,
      });
    }
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
