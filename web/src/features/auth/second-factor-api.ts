import type {
  SecondFactorActivated,
  SecondFactorSetup,
  SecondFactorVerified,
} from '@schlosstreffen/shared/api';
import type { SecondFactorVerifyInput } from '@schlosstreffen/shared';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, apiGet } from '../../lib/api';

const SETUP_PATH = '/api/auth/second-factor/setup';

/**
 * The key of a staff sign-in's second factor setup (QR code and text). Made once per sign-in by the
 * server; kept only while the setup screen is open and never fetched again by itself.
 */
export const secondFactorSetupQueryOptions = queryOptions({
  queryKey: ['auth', 'second-factor', 'setup'] as const,
  queryFn: () => apiGet<SecondFactorSetup>(SETUP_PATH),
  staleTime: Infinity,
  gcTime: 0,
  retry: false,
  refetchOnWindowFocus: false,
});

/** POST /api/auth/second-factor/setup with the first code: signed in, the recovery codes once. */
export function useConfirmSecondFactorSetup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { code: string }) => api.post<SecondFactorActivated>(SETUP_PATH, body),
    onSuccess: () => queryClient.removeQueries({ queryKey: secondFactorSetupQueryOptions.queryKey }),
  });
}

/** POST /api/auth/second-factor/verify with a code from the app or a recovery code: signed in. */
export function useVerifySecondFactor() {
  return useMutation({
    mutationFn: (body: SecondFactorVerifyInput) =>
      api.post<SecondFactorVerified>('/api/auth/second-factor/verify', body),
  });
}

/** Gives up a sign-in that waits for its second factor (POST /api/auth/logout ends its session). */
export function cancelPendingSignIn(): Promise<unknown> {
  return api.post('/api/auth/logout', {}).catch(() => undefined);
}
