import type { ResetTokenCheck } from '@schlosstreffen/shared/api';
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { notify } from '../../components/ui/toaster';
import { api } from '../../lib/api';

const resetTokenKey = (token: string) => ['auth', 'reset-token', token] as const;

/** POST /api/auth/verify-reset-token: a failure (400) means the link is invalid or expired. */
export const resetTokenQueryOptions = (token: string) =>
  queryOptions({
    queryKey: resetTokenKey(token),
    queryFn: () => api.post<ResetTokenCheck>('/api/auth/verify-reset-token', { token }),
  });

/**
 * Starts the check of a reset link (not awaited: the page shows 'Token wird überprüft' meanwhile)
 * and tells the user once per visit, by an error toast, when the link is missing, invalid or expired.
 */
export function checkResetToken(
  queryClient: QueryClient,
  token: string | undefined,
  { announce }: { announce: boolean },
): void {
  if (!token) {
    if (announce) notify.error('Ungültiger Link', undefined, 'Es wurde kein Reset-Token gefunden.');
    return;
  }
  // Checked again on every visit: a link that was used or has expired since must not pass from cache.
  queryClient.fetchQuery({ ...resetTokenQueryOptions(token), staleTime: 0 }).catch((error: unknown) => {
    if (announce)
      notify.error('Ungültiger oder abgelaufener Link', error, 'Der Reset-Link ist nicht mehr gültig.');
  });
}
