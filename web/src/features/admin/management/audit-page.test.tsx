import type { AuditEntry, AuditPage } from '@schlosstreffen/shared';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { findToast, mockApi, renderAt, setupScreenTests, SIGNED_IN_USER } from '../../../test/screen-helpers';

setupScreenTests();

const ADMIN = { ...SIGNED_IN_USER, role: 'admin' } as const;
const REVIEWER = { ...SIGNED_IN_USER, role: 'reviewer' } as const;
const PATH = '/api/admin/audit';

const entry = (overrides: Partial<AuditEntry>): AuditEntry => ({
  id: crypto.randomUUID(),
  actorId: 'a1b2c3d4-0000-4000-8000-000000000001',
  actorName: 'Anna Admin',
  actorRole: 'admin',
  action: 'visitors.export_csv',
  target: '2026',
  targetName: null,
  details: {},
  ip: '203.0.113.7',
  createdAt: '2026-03-02T09:15:00.000Z',
  ...overrides,
});

const FIRST: AuditPage = {
  entries: [
    entry({ action: 'vehicles.export_csv', details: { status: 'submitted', search: true } }),
    entry({
      actorId: null,
      actorName: 'Kommandozeile',
      actorRole: 'system',
      action: 'accounts.role',
      target: 'e5f6a7b8-0000-4000-8000-000000000002',
      targetName: 'Rita Prüfer',
      // The database's order of keys; the page shows them in its own.
      details: { to: 'admin', from: 'reviewer' },
      ip: null,
    }),
  ],
  next: '41',
  people: [{ id: 'a1b2c3d4-0000-4000-8000-000000000001', name: 'Anna Admin' }],
};
const SECOND: AuditPage = {
  entries: [
    entry({ actorName: 'Gelöschtes Konto', actorRole: 'reviewer', ip: null, action: 'media.export_zip' }),
  ],
  next: null,
  people: FIRST.people,
};

describe('/admin/protokoll', () => {
  it('shows "Zugriff verweigert" to reviewers, without a link or a read of the log', async () => {
    const api = mockApi({ 'GET /api/auth/user': () => ({ body: REVIEWER }) });
    await renderAt('/admin/protokoll');

    expect(await screen.findByRole('heading', { level: 1, name: 'Zugriff verweigert' })).toBeTruthy();
    await findToast('Zugriff verweigert');
    expect(api.calls.some((call) => call.path === PATH)).toBe(false);
    const nav = screen.getByRole('navigation', { name: 'Adminbereich' });
    expect(within(nav).queryByRole('link', { name: 'Protokoll' })).toBeNull();
  });

  it('lists time at the venue, person, role, action with details, subject and address, and loads more', async () => {
    let page = 0;
    mockApi({
      'GET /api/auth/user': () => ({ body: ADMIN }),
      [`GET ${PATH}`]: () => ({ body: (page += 1) === 1 ? FIRST : SECOND }),
    });
    await renderAt('/admin/protokoll');

    const table = await screen.findByRole('table', { name: 'Protokoll' });
    const rows = () =>
      within(table)
        .getAllByRole('row')
        .slice(1)
        .map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent));
    expect(rows()).toEqual([
      [
        '02.03.2026, 10:15 Uhr',
        'Anna Admin',
        'Admin',
        'Bewerbungen als CSV exportiertStatus: Eingereicht · Suche: ja',
        '2026',
        '203.0.113.7',
      ],
      [
        '02.03.2026, 10:15 Uhr',
        'SystemKommandozeile',
        'System',
        'Rolle geändertvorher: Prüfer · nachher: Admin',
        'Rita Prüfere5f6a7b8-0000-4000-8000-000000000002',
        '–',
      ],
    ]);
    const nav = screen.getByRole('navigation', { name: 'Adminbereich' });
    expect(within(nav).getByRole('link', { name: 'Protokoll' }).getAttribute('aria-current')).toBe('page');

    await userEvent.setup().click(screen.getByRole('button', { name: 'Mehr laden' }));
    expect(await within(table).findByText('Gelöschtes Konto')).toBeTruthy();
    expect(rows()).toHaveLength(3);
    expect(rows()[2]).toEqual([
      '02.03.2026, 10:15 Uhr',
      'Gelöschtes Konto',
      'Prüfer',
      'Medien als ZIP heruntergeladen',
      '2026',
      '–',
    ]);
    expect(screen.queryByRole('button', { name: 'Mehr laden' })).toBeNull();
  });

  it("says 'Keine Einträge gefunden' when nothing is logged", async () => {
    mockApi({
      'GET /api/auth/user': () => ({ body: ADMIN }),
      [`GET ${PATH}`]: () => ({ body: { entries: [], next: null, people: [] } satisfies AuditPage }),
    });
    await renderAt('/admin/protokoll');

    expect(await screen.findByRole('heading', { name: 'Keine Einträge gefunden' })).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });
});
