import type { AccountDeleteBody } from '@schlosstreffen/shared';
import type { Consent, DataExport, ServerMessage } from '@schlosstreffen/shared/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { currentUserQueryOptions } from '../../lib/current-user';
import { invalidateVehicles, vehicleKeys } from '../vehicles/vehicle-queries';
import { privacyKeys } from './privacy-queries';

/**
 * POST /api/account/consents/{id}/withdraw. A withdrawn consent changes what the public list shows
 * and the user's consent flags, so the vehicles (consents included) and the current user are read again.
 */
export function useWithdrawConsent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api.post<Consent>(`/api/account/consents/${encodeURIComponent(id)}/withdraw`, {}),
    onSettled: () =>
      Promise.all([
        invalidateVehicles(queryClient),
        queryClient.invalidateQueries({ queryKey: currentUserQueryOptions.queryKey }),
      ]),
  });
}

/** POST /api/account/export; the answer is the new export, which the profile then polls. */
export function useStartExport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<DataExport>('/api/account/export', {}),
    onSuccess: (created) => queryClient.setQueryData(privacyKeys.export, created),
    // E.g. 409 while one is still being built: show the one the server has.
    onError: () => queryClient.invalidateQueries({ queryKey: privacyKeys.export }),
  });
}

/**
 * POST /api/account/delete with the password. The session ends with the account: afterwards the
 * cache holds no signed-in user and none of their data.
 */
export function useDeleteAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AccountDeleteBody) => api.post<ServerMessage>('/api/account/delete', body),
    onSuccess: () => {
      queryClient.setQueryData(currentUserQueryOptions.queryKey, null);
      queryClient.removeQueries({ queryKey: vehicleKeys.all });
      queryClient.removeQueries({ queryKey: ['account'] });
    },
  });
}
