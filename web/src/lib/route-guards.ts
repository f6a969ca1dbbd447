import type { QueryClient } from '@tanstack/react-query';
import { redirect, type ParsedLocation } from '@tanstack/react-router';
import { currentUserQueryOptions } from './current-user';
import type { CurrentUser } from '@schlosstreffen/shared/api';

/**
 * `beforeLoad` for signed-in areas: resolves the current user (from cache after the first call) or
 * redirects to /login, remembering where the user wanted to go.
 */
export async function requireSignedIn({
  context,
  location,
}: {
  context: { queryClient: QueryClient };
  location: ParsedLocation;
}): Promise<{ user: CurrentUser }> {
  const user = await context.queryClient.ensureQueryData(currentUserQueryOptions);
  if (!user) {
    throw redirect({ to: '/login', search: { redirect: location.href } });
  }
  return { user };
}

/** Only same-site paths are followed after login, never another origin. */
export function safeRedirectTarget(target: unknown, fallback = '/dashboard'): string {
  if (typeof target !== 'string' || !target.startsWith('/') || target.startsWith('//')) return fallback;
  return target;
}
