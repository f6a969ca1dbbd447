import type { Role } from '@schlosstreffen/shared';
import type { RegisteredRouter } from '@tanstack/react-router';
import { mayAccess, type AdminAccess } from './admin-access';

/** A screen of the admin area the web client serves (its index only leads on to one). */
export type AdminScreen = Exclude<
  Extract<keyof RegisteredRouter['routesByPath'], `/admin/${string}`>,
  '/admin/'
>;

/** The queue dashboard: served by the API, so reached by a full page load. */
export const QUEUES_PATH = '/admin/queues';

export interface AdminMenuEntry {
  label: string;
  to: AdminScreen | typeof QUEUES_PATH;
  access: AdminAccess;
}

export interface AdminMenuGroup {
  label: string;
  entries: readonly AdminMenuEntry[];
}

/**
 * The admin area's menu: its screens in groups, in this order. A screen's code stands in the
 * feature folder of its group (applications, event-day, communication, management).
 */
export const ADMIN_MENU: readonly AdminMenuGroup[] = [
  {
    label: 'Bewerbungen',
    entries: [
      { label: 'Bewerbungen', to: '/admin/dashboard', access: 'staff' },
      { label: 'Meine Prüfungen', to: '/admin/pruefungen', access: 'staff' },
      { label: 'Zahlungen', to: '/admin/zahlungen', access: 'admin' },
    ],
  },
  {
    label: 'Veranstaltungstag',
    entries: [
      { label: 'Check-in', to: '/admin/check-in', access: 'staff' },
      { label: 'Einlass', to: '/admin/einlass', access: 'staff' },
      { label: 'Auto-Quartett', to: '/admin/quartett', access: 'admin' },
      { label: 'Windschilder', to: '/admin/windschilder', access: 'admin' },
      { label: 'Publikumsliebling', to: '/admin/publikumsliebling', access: 'admin' },
      { label: 'Jury', to: '/admin/jury', access: 'admin' },
    ],
  },
  {
    label: 'Kommunikation',
    entries: [
      { label: 'Besucher', to: '/admin/besucher', access: 'admin' },
      { label: 'Besucher-Updates', to: '/admin/besucher-updates', access: 'admin' },
      { label: 'E-Mail-Vorlagen', to: '/admin/mail-vorlagen', access: 'admin' },
      { label: 'Texte', to: '/admin/texte', access: 'admin' },
    ],
  },
  {
    label: 'Verwaltung',
    entries: [
      { label: 'Ausgaben', to: '/admin/ausgaben', access: 'admin' },
      { label: 'Prüfung', to: '/admin/pruefung', access: 'admin' },
      { label: 'Team', to: '/admin/team', access: 'admin' },
      { label: 'Protokoll', to: '/admin/protokoll', access: 'admin' },
      { label: 'Datenschutz', to: '/admin/datenschutz', access: 'admin' },
      { label: 'Warteschlangen', to: QUEUES_PATH, access: 'admin' },
    ],
  },
];

/** The groups and entries a role may open; a group with none of them is left out. */
export function adminMenuFor(role: Role): AdminMenuGroup[] {
  return ADMIN_MENU.map((group) => ({
    label: group.label,
    entries: group.entries.filter((entry) => mayAccess(role, entry.access)),
  })).filter((group) => group.entries.length > 0);
}

/** The entry (and its group) whose screen the path shows, if the menu has it. */
export function currentAdminEntry(
  groups: readonly AdminMenuGroup[],
  pathname: string,
): { group: AdminMenuGroup; entry: AdminMenuEntry } | undefined {
  for (const group of groups) {
    const entry = group.entries.find(({ to }) => pathname === to || pathname.startsWith(`${to}/`));
    if (entry) return { group, entry };
  }
  return undefined;
}
