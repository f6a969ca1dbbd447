import { isStaffRole, type Role } from '@schlosstreffen/shared';
import { pageHead } from '../../lib/page-head';

export const ACCESS_DENIED = {
  title: 'Zugriff verweigert',
  text: 'Sie haben keine Berechtigung, auf das Admin-Dashboard zuzugreifen.',
} as const;

/** Who may see a screen of the admin area: staff (admins and reviewers) or admins only. */
export type AdminAccess = 'staff' | 'admin';

export function mayAccess(role: Role, access: AdminAccess): boolean {
  return access === 'admin' ? role === 'admin' : isStaffRole(role);
}

/** The `head()` of an admin screen: its own title and description, or 'Zugriff verweigert'. */
export function adminPageHead(role: Role, access: AdminAccess, title: string, description: string) {
  return mayAccess(role, access)
    ? pageHead(title, description)
    : pageHead(`${ACCESS_DENIED.title} – Schlosstreffen`, ACCESS_DENIED.text);
}
