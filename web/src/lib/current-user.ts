import { CURRENT_USER_ELEMENT_ID } from '@schlosstreffen/shared';
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { apiGet, isApiError } from './api';
import type { CurrentUser } from '@schlosstreffen/shared/api';

/**
 * The signed-in user, or null. Signed in means the current-user call returns data; a
 * failed call is not retried and means signed out.
 */
export const currentUserQueryOptions = queryOptions({
  queryKey: ['auth', 'user'],
  // Asked even offline: the gate's check-in screen opens without network (see offlineGateUser).
  networkMode: 'always',
  queryFn: async (): Promise<CurrentUser | null> => {
    try {
      return await apiGet<CurrentUser>('/api/auth/user');
    } catch (error) {
      return isApiError(error) ? null : offlineGateUser();
    }
  },
});

/**
 * Without network, the check-in screen of a device that holds a valid gate list opens for the staff
 * member who loaded it; everywhere else, no connection means signed out.
 */
async function offlineGateUser(): Promise<CurrentUser | null> {
  if (typeof window === 'undefined' || !window.location.pathname.startsWith('/admin/check-in')) return null;
  try {
    const { gateStaff } = await import('./gate-store');
    const staff = await gateStaff();
    if (!staff) return null;
    return {
      id: staff.id,
      email: '',
      firstName: staff.firstName,
      lastName: staff.lastName,
      profileImageUrl: null,
      phone: null,
      instagramHandle: null,
      role: staff.role,
      consentMedia: false,
      consentQuartett: false,
      consentContact: false,
      emailVerified: true,
      pendingEmail: null,
      createdAt: '',
      updatedAt: '',
    };
  } catch {
    return null;
  }
}

export function useCurrentUser() {
  return useQuery(currentUserQueryOptions);
}

/** The dashboard button's label: the first name, else the part of the email before the at-sign. */
export function userDisplayName(user: Pick<CurrentUser, 'firstName' | 'email'>): string {
  const first = user.firstName?.trim();
  if (first) return first;
  return user.email.split('@')[0] ?? user.email;
}

/**
 * A page the server did not render itself carries the signed-in user (or null) as a data block:
 * put into the cache, the first load needs no current-user call.
 */
export function seedCurrentUser(queryClient: QueryClient): void {
  const text = document.getElementById(CURRENT_USER_ELEMENT_ID)?.textContent;
  if (!text) return;
  try {
    queryClient.setQueryData(currentUserQueryOptions.queryKey, JSON.parse(text) as CurrentUser | null);
  } catch {
    // Unreadable: the query asks the API as usual.
  }
}
