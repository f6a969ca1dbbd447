import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { findToast, mockApi, renderAt, setupScreenTests, SIGNED_IN_USER } from '../../../test/screen-helpers';
import type { AdminVisitor, AdminVisitorList } from '@schlosstreffen/shared/api';

setupScreenTests();

const ADMIN = { ...SIGNED_IN_USER, role: 'admin' } as const;
const REVIEWER = { ...SIGNED_IN_USER, role: 'reviewer' } as const;

function visitor(overrides: Partial<AdminVisitor> & Pick<AdminVisitor, 'id'>): AdminVisitor {
  return {
    firstName: 'Max',
    lastName: 'Mustermann',
    email: `${overrides.id}@example.de`,
    phone: null,
    createdAt: '2026-05-01T08:30:00.000Z',
    confirmedAt: null,
    unsubscribedAt: null,
    state: 'pending',
    ...overrides,
  };
}

const LIST: AdminVisitorList = {
  visitors: [
    visitor({
      id: 'v1',
      firstName: 'Anna',
      lastName: 'Schmidt',
      email: 'anna.schmidt@example.de',
      phone: '+49 351 123456',
      state: 'confirmed',
      confirmedAt: '2026-05-01T09:00:00.000Z',
    }),
    visitor({ id: 'v2', firstName: 'Jonas', lastName: 'Becker', email: 'jb@beispiel.de' }),
    visitor({
      id: 'v3',
      firstName: 'Marie',
      lastName: 'Koch',
      email: 'marie.koch@example.de',
      state: 'unsubscribed',
      createdAt: '2026-01-15T18:05:00.000Z',
    }),
  ],
  counts: { total: 3, confirmed: 1, pending: 1, unsubscribed: 1 },
};

function asAdmin(list: AdminVisitorList) {
  return mockApi({
    'GET /api/auth/user': () => ({ body: ADMIN }),
    'GET /api/admin/visitors': () => ({ body: list }),
  });
}

/** The wide table (the phone card list carries the same rows). */
const table = () => screen.getByRole('table', { name: 'Besuchervoranmeldungen' });
const tableNames = () =>
  within(table())
    .queryAllByRole('rowheader')
    .map((cell) => cell.textContent);

describe('/admin/besucher', () => {
  it('shows "Zugriff verweigert" to reviewers and never reads the visitors', async () => {
    const api = mockApi({ 'GET /api/auth/user': () => ({ body: REVIEWER }) });
    await renderAt('/admin/besucher');

    expect(await screen.findByRole('heading', { level: 1, name: 'Zugriff verweigert' })).toBeTruthy();
    expect(
      await findToast(
        'Zugriff verweigert',
        'Sie haben keine Berechtigung, auf das Admin-Dashboard zuzugreifen.',
      ),
    ).toBeTruthy();
    expect(screen.queryByRole('link', { name: /CSV herunterladen/ })).toBeNull();
    expect(api.calls.some((call) => call.path.startsWith('/api/admin/visitors'))).toBe(false);
  });

  it('lists the visitors with state labels, de-DE dates and counts per state', async () => {
    asAdmin(LIST);
    await renderAt('/admin/besucher');

    expect(await screen.findByRole('heading', { level: 1, name: 'Besucher' })).toBeTruthy();
    expect(document.title).toBe('Besucher – Adminbereich – Schlosstreffen');

    const counts = Object.fromEntries(
      screen
        .getAllByRole('term')
        .filter((term) => term.closest('li') === null)
        .map((term) => [term.textContent, term.nextElementSibling?.textContent]),
    );
    expect(counts).toEqual({ Gesamt: '3', Bestätigt: '1', Unbestätigt: '1', Abgemeldet: '1' });

    expect(tableNames()).toEqual(['Anna Schmidt', 'Jonas Becker', 'Marie Koch']);
    const rows = within(table()).getAllByRole('row').slice(1);
    const anna = within(rows[0]!);
    expect(anna.getByText('Bestätigt')).toBeTruthy();
    expect(anna.getByRole('link', { name: 'anna.schmidt@example.de' }).getAttribute('href')).toBe(
      'mailto:anna.schmidt@example.de',
    );
    expect(anna.getByRole('link', { name: '+49 351 123456' }).getAttribute('href')).toBe('tel:+49351123456');
    expect(anna.getByText('01.05.2026, 10:30')).toBeTruthy();
    expect(within(rows[1]!).getByText('Unbestätigt')).toBeTruthy();
    expect(within(rows[1]!).getByText('Nicht angegeben')).toBeTruthy();
    expect(within(rows[2]!).getByText('Abgemeldet')).toBeTruthy();
    expect(within(rows[2]!).getByText('15.01.2026, 19:05')).toBeTruthy();

    // The phone layout: one card per visitor.
    const cards = within(screen.getByRole('list', { name: 'Besuchervoranmeldungen' })).getAllByRole(
      'listitem',
    );
    expect(cards.map((card) => within(card).getByRole('heading').textContent)).toEqual([
      'Anna Schmidt',
      'Jonas Becker',
      'Marie Koch',
    ]);
    expect(within(cards[2]!).getByText('Abgemeldet')).toBeTruthy();
  });

  it('offers the CSV export as a plain download link', async () => {
    asAdmin(LIST);
    await renderAt('/admin/besucher');

    const csv = await screen.findByRole('link', { name: 'CSV herunterladen' });
    expect(csv.getAttribute('href')).toBe('/api/admin/visitors.csv');
    expect(csv.hasAttribute('download')).toBe(true);
  });

  it('searches by name or email, case-insensitively, and says when nothing matches', async () => {
    asAdmin(LIST);
    const user = userEvent.setup();
    await renderAt('/admin/besucher');

    const search = await screen.findByLabelText('Suche nach Name oder E-Mail');
    expect(screen.getByText('3 Besucher')).toBeTruthy();

    await user.type(search, 'SCHMIDT');
    expect(tableNames()).toEqual(['Anna Schmidt']);
    expect(screen.getByText('1 von 3 Besuchern')).toBeTruthy();

    await user.clear(search);
    await user.type(search, 'beispiel.de');
    expect(tableNames()).toEqual(['Jonas Becker']);

    await user.clear(search);
    await user.type(search, 'marie koch');
    expect(tableNames()).toEqual(['Marie Koch']);

    await user.clear(search);
    await user.type(search, 'niemand');
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getByRole('heading', { name: 'Keine Besucher gefunden' })).toBeTruthy();
    expect(screen.getByText('Versuchen Sie einen anderen Suchbegriff')).toBeTruthy();
    expect(screen.getByText('0 von 3 Besuchern')).toBeTruthy();

    await user.clear(search);
    expect(tableNames()).toHaveLength(3);
  });

  it('shows an empty state when nobody has pre-registered', async () => {
    asAdmin({ visitors: [], counts: { total: 0, confirmed: 0, pending: 0, unsubscribed: 0 } });
    await renderAt('/admin/besucher');

    expect(await screen.findByRole('heading', { name: 'Noch keine Besucher vorgemerkt' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Zur Besuchervoranmeldung' }).getAttribute('href')).toBe(
      '/visitor-registration',
    );
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.queryByLabelText('Suche nach Name oder E-Mail')).toBeNull();
    expect(screen.getByRole('link', { name: 'CSV herunterladen' })).toBeTruthy();
  });

  it("shows the server's message when the list cannot be loaded", async () => {
    mockApi({
      'GET /api/auth/user': () => ({ body: ADMIN }),
      'GET /api/admin/visitors': () => ({ status: 500, body: { message: 'Datenbank nicht erreichbar.' } }),
    });
    await renderAt('/admin/besucher');

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Besucher konnten nicht geladen werden');
    expect(alert.textContent).toContain('Datenbank nicht erreichbar.');
    expect(within(alert).getByRole('button', { name: 'Erneut versuchen' })).toBeTruthy();
  });
});
