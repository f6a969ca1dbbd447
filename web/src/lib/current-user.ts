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
  // Asked even offline: a screen may open without network (see addOfflineUser).
  networkMode: 'always',
  queryFn: async (): Promise<CurrentUser | null> => {
    try {
      return await apiGet<CurrentUser>('/api/auth/user');
    } catch (error) {
      return isApiError(error) ? null : offlineUser();
    }
  },
});

const offlineUsers: Array<() => Promise<CurrentUser | null>> = [];

/**
 * Who counts as signed in while the server cannot be reached: nobody, unless a feature says
 * otherwise for its screens (the gate's check-in screen, the jury's), registered by its route. The
 * first that names someone counts.
 */
export function addOfflineUser(resolve: () => Promise<CurrentUser | null>): void {
  offlineUsers.push(resolve);
}

async function offlineUser(): Promise<CurrentUser | null> {
  for (const resolve of offlineUsers) {
    const user = await resolve().catch(() => null);
    if (user) return user;
  }
  return null;
}

const signOutCleanups: Array<() => Promise<void>> = [];

/** Deletes data a feature keeps on the device once its user signs out (registered by the feature's route). */
export function onSignOut(cleanup: () => Promise<void>): void {
  signOutCleanups.push(cleanup);
}

/** Runs every sign-out cleanup; a failing one does not stop the others. */
export async function runSignOutCleanups(): Promise<void> {
  await Promise.all(signOutCleanups.map((cleanup) => cleanup().catch(() => undefined)));
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
