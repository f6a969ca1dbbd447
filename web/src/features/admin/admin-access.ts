import type { FetchQueryOptions, QueryClient, QueryKey } from '@tanstack/react-query';
import { isStaffRole, type Role } from '@schlosstreffen/shared';
import type { CurrentUser } from '@schlosstreffen/shared/api';
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
function adminPageHead(role: Role, access: AdminAccess, title: string, description: string) {
  return mayAccess(role, access)
    ? pageHead(title, description)
    : pageHead(`${ACCESS_DENIED.title} – Schlosstreffen`, ACCESS_DENIED.text);
}

/** What the admin area's routes receive: the signed-in user from the layout's `beforeLoad`. */
interface AdminRouteContext {
  queryClient: QueryClient;
  user: CurrentUser;
}

/** The `head()` of an admin screen, from its access, title and description. */
export function adminHead(access: AdminAccess, title: string, description: string) {
  return ({ match }: { match: { context: AdminRouteContext } }) =>
    adminPageHead(match.context.user.role, access, title, description);
}

/**
 * The `loader` of an admin screen: starts its query, not awaited (the page shows its skeletons
 * while they load), and only for those who may see it: everyone else sees 'Zugriff verweigert' and
 * never calls the API.
 */
export function startQueryFor<T, K extends QueryKey>(
  access: AdminAccess,
  query: FetchQueryOptions<T, Error, T, K>,
) {
  return ({ context }: { context: AdminRouteContext }) => {
    if (!mayAccess(context.user.role, access)) return;
    void context.queryClient.ensureQueryData(query).catch(() => undefined);
  };
}
