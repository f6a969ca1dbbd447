import { RETENTION_RULES } from '@schlosstreffen/shared';
import type { RetentionOverview } from '@schlosstreffen/shared/api';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  failWith,
  findToast,
  mockApi,
  renderAt,
  setupScreenTests,
  SIGNED_IN_USER,
} from '../../../test/screen-helpers';

setupScreenTests();

const ADMIN = { ...SIGNED_IN_USER, role: 'admin' } as const;
const REVIEWER = { ...SIGNED_IN_USER, role: 'reviewer' } as const;
const PATH = '/api/admin/retention';

const periods: RetentionOverview['periods'] = [
  { rule: 'visitorsAfterEvent', ...RETENTION_RULES.visitorsAfterEvent, days: 45 },
  { rule: 'unattachedUploads', ...RETENTION_RULES.unattachedUploads, days: 1 },
];

function asAdmin(overview: RetentionOverview | (() => { status?: number; body?: unknown })) {
  return mockApi({
    'GET /api/auth/user': () => ({ body: ADMIN }),
    [`GET ${PATH}`]: typeof overview === 'function' ? overview : () => ({ body: overview }),
  });
}

describe('/admin/datenschutz', () => {
  it('shows "Zugriff verweigert" to reviewers and never reads the overview', async () => {
    const api = mockApi({ 'GET /api/auth/user': () => ({ body: REVIEWER }) });
    await renderAt('/admin/datenschutz');

    expect(await screen.findByRole('heading', { level: 1, name: 'Zugriff verweigert' })).toBeTruthy();
    await findToast('Zugriff verweigert');
    expect(api.calls.some((call) => call.path === PATH)).toBe(false);
    const nav = screen.getByRole('navigation', { name: 'Adminbereich' });
    expect(within(nav).queryByRole('link', { name: 'Datenschutz' })).toBeNull();
  });

  it('lists the periods with label, days and description, and the command that runs it at once', async () => {
    asAdmin({ periods, lastRun: null });
    await renderAt('/admin/datenschutz');

    expect(await screen.findByRole('heading', { level: 1, name: 'Datenschutz' })).toBeTruthy();
    const table = await screen.findByRole('table', { name: 'Speicherfristen' });
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent));
    expect(rows).toEqual([
      ['Besucher-Voranmeldungen', '45', 'Tage nach dem Ende der Veranstaltung'],
      ['Hochgeladene Originaldateien (bereinigt oder nie zugeordnet)', '1', 'Tage nach dem Hochladen'],
    ]);
    expect(screen.getByText('npm run cli -- retention:run')).toBeTruthy();
    expect(
      within(screen.getByRole('region', { name: 'Letzter Lauf' })).getByText('Noch kein Lauf'),
    ).toBeTruthy();
    const nav = screen.getByRole('navigation', { name: 'Adminbereich' });
    expect(within(nav).getByRole('link', { name: 'Datenschutz' }).getAttribute('aria-current')).toBe('page');
  });

  it('shows the last run with its times and what it removed per rule', async () => {
    asAdmin({
      periods,
      lastRun: {
        startedAt: '2026-07-01T01:00:00.000Z',
        asOf: '2026-07-01T00:00:00.000Z',
        removed: { visitorsAfterEvent: 12, emailLog: 0, orphanedThumbnails: 3 },
      },
    });
    await renderAt('/admin/datenschutz');

    const run = await screen.findByRole('region', { name: 'Letzter Lauf' });
    expect(run.textContent).toContain('01.07.2026, 03:00 Uhr');
    expect(run.textContent).toContain('01.07.2026, 02:00 Uhr');
    const removed = within(run)
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(removed).toEqual([
      'Besucher-Voranmeldungen12',
      'Protokoll versendeter E-Mails0',
      // A key shared does not know is shown as the server sent it.
      'orphanedThumbnails3',
    ]);
  });

  it('says so when the last run removed nothing', async () => {
    asAdmin({
      periods,
      lastRun: { startedAt: '2026-07-01T01:00:00.000Z', asOf: '2026-07-01T01:00:00.000Z', removed: {} },
    });
    await renderAt('/admin/datenschutz');

    expect(await screen.findByText('Nichts zu löschen')).toBeTruthy();
  });

  it('shows a load error with the server message', async () => {
    asAdmin(failWith(500, 'Die Datenbank ist nicht erreichbar.'));
    await renderAt('/admin/datenschutz');

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Speicherfristen konnten nicht geladen werden');
    expect(alert.textContent).toContain('Die Datenbank ist nicht erreichbar.');
  });
});
