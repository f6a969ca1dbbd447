import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from './api';
import type { CurrentUser } from '@schlosstreffen/shared/api';

/**
 * The signed-in user, or null. Signed in means the current-user call returns data; a
 * failed call is not retried and means signed out.
 */
export const currentUserQueryOptions = queryOptions({
  queryKey: ['auth', 'user'],
  queryFn: async (): Promise<CurrentUser | null> => {
    try {
      return await apiGet<CurrentUser>('/api/auth/user');
    } catch {
      return null;
    }
  },
});

export function useCurrentUser() {
  return useQuery(currentUserQueryOptions);
}

/** The dashboard button's label: the first name, else the part of the email before the at-sign. */
export function userDisplayName(user: Pick<CurrentUser, 'firstName' | 'email'>): string {
  const first = user.firstName?.trim();
  if (first) return first;
  return user.email.split('@')[0] ?? user.email;
}
