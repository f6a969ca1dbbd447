import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { mockApi, renderAt, setupScreenTests, SIGNED_IN_USER } from '../../test/screen-helpers';
import { ADMIN_MENU, adminMenuFor, currentAdminEntry } from './admin-menu';

setupScreenTests();

const ADMIN = { ...SIGNED_IN_USER, role: 'admin' } as const;
const REVIEWER = { ...SIGNED_IN_USER, role: 'reviewer' } as const;

/** The side column's groups: each label with its entries' names. */
function sideColumn() {
  const nav = screen.getByRole('navigation', { name: 'Adminbereich' });
  return within(nav)
    .getAllByRole('list')
    .map((list) => ({
      group: document.getElementById(list.getAttribute('aria-labelledby') ?? '')?.textContent,
      entries: within(list)
        .getAllByRole('link')
        .map((link) => link.textContent),
    }));
}

describe('the admin menu', () => {
  it('holds every screen once, in four groups', () => {
    expect(ADMIN_MENU.map((group) => group.label)).toEqual([
      'Bewerbungen',
      'Veranstaltungstag',
      'Kommunikation',
      'Verwaltung',
    ]);
    const paths = ADMIN_MENU.flatMap((group) => group.entries.map((entry) => entry.to));
    expect(paths).toHaveLength(19);
    expect(new Set(paths).size).toBe(19);
  });

  it('gives reviewers the screens of their role only, and finds the current one by its path', () => {
    const reviewer = adminMenuFor('reviewer');
    expect(reviewer.map((group) => [group.label, group.entries.map((entry) => entry.label)])).toEqual([
      ['Bewerbungen', ['Bewerbungen', 'Meine Prüfungen']],
      ['Veranstaltungstag', ['Check-in', 'Einlass']],
    ]);
    expect(adminMenuFor('user')).toEqual([]);
    const admin = adminMenuFor('admin');
    expect(currentAdminEntry(admin, '/admin/pruefung')?.entry.label).toBe('Prüfung');
    expect(currentAdminEntry(admin, '/admin/pruefungen')?.entry.label).toBe('Meine Prüfungen');
    expect(currentAdminEntry(admin, '/admin/texte')?.group.label).toBe('Kommunikation');
    expect(currentAdminEntry(admin, '/admin/zahlungen')?.group.label).toBe('Bewerbungen');
    // Payments show bank data: admins only.
    expect(currentAdminEntry(reviewer, '/admin/zahlungen')).toBeUndefined();
    expect(currentAdminEntry(reviewer, '/admin/team')).toBeUndefined();
  });

  it("lists an admin's groups with their screens and marks the current one", async () => {
    mockApi({ 'GET /api/auth/user': () => ({ body: ADMIN }) });
    await renderAt('/admin/ausgaben');
    await waitFor(() => expect(sideColumn()).toHaveLength(4));
    expect(sideColumn()).toEqual([
      { group: 'Bewerbungen', entries: ['Bewerbungen', 'Meine Prüfungen', 'Zahlungen'] },
      {
        group: 'Veranstaltungstag',
        entries: ['Check-in', 'Einlass', 'Auto-Quartett', 'Windschilder', 'Publikumsliebling', 'Jury'],
      },
      {
        group: 'Kommunikation',
        entries: ['Besucher', 'Besucher-Updates', 'E-Mail-Vorlagen', 'Texte'],
      },
      {
        group: 'Verwaltung',
        entries: ['Ausgaben', 'Prüfung', 'Team', 'Protokoll', 'Datenschutz', 'Warteschlangen'],
      },
    ]);
    const nav = screen.getByRole('navigation', { name: 'Adminbereich' });
    const current = within(nav)
      .getAllByRole('link')
      .filter((link) => link.getAttribute('aria-current') === 'page');
    expect(current.map((link) => link.textContent)).toEqual(['Ausgaben']);
    // The queue dashboard is the API's page, loaded as a whole.
    expect(within(nav).getByRole('link', { name: 'Warteschlangen' }).getAttribute('href')).toBe(
      '/admin/queues',
    );
  });

  it('names the current group and screen on the menu button, whose menu lists the entries and leads to one', async () => {
    // The open menu is placed next to its button by watching their sizes.
    vi.stubGlobal(
      'ResizeObserver',
      class {
        observe() {}
        unobserve() {}
        disconnect() {}
      },
    );
    mockApi({ 'GET /api/auth/user': () => ({ body: REVIEWER }) });
    const { router, user } = await renderAt('/admin/einlass');
    const button = await screen.findByRole('button', { name: /^Veranstaltungstag\s+Einlass$/ });
    expect(button.getAttribute('aria-haspopup')).toBe('menu');
    expect(sideColumn().map((group) => group.group)).toEqual(['Bewerbungen', 'Veranstaltungstag']);

    await user.click(button);
    const menu = await screen.findByRole('menu');
    expect(
      within(menu)
        .getAllByRole('group')
        .map((group) => group.getAttribute('aria-labelledby')),
    ).toHaveLength(2);
    const items = within(menu).getAllByRole('menuitem');
    expect(items.map((item) => item.textContent)).toEqual([
      'Bewerbungen',
      'Meine Prüfungen',
      'Check-in',
      'Einlass',
    ]);
    expect(items.find((item) => item.textContent === 'Einlass')?.getAttribute('aria-current')).toBe('page');
    // It opens at the screen on show.
    await waitFor(() =>
      expect(items.find((item) => item.textContent === 'Einlass')?.hasAttribute('data-highlighted')).toBe(
        true,
      ),
    );

    await user.click(within(menu).getByRole('menuitem', { name: 'Meine Prüfungen' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/pruefungen'));
    expect(await screen.findByRole('button', { name: /^Bewerbungen\s+Meine Prüfungen$/ })).toBeTruthy();
  });
});
