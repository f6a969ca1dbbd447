import type { AdminStatusUpdate, Correction } from '@schlosstreffen/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, isApiError } from '../../../lib/api';
import type { Vehicle } from '@schlosstreffen/shared/api';
import { invalidateVehicles, vehicleKeys } from '../../vehicles/vehicle-queries';
import { historyKey } from './admin-queries';

/** The body of PATCH /api/admin/vehicles/{id}/status; empty note and score travel as null. */
interface StatusUpdateRequest {
  vehicleId: string;
  update: AdminStatusUpdate;
}

/**
 * Changes a vehicle's status (PATCH /api/admin/vehicles/{id}/status). Afterwards every vehicle list
 * and the history are refetched; after a 409 (someone else changed the status first) the admin list
 * and the history are reloaded too, so the dialog shows the status that is current now.
 */
export function useAdminStatusMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ vehicleId, update }: StatusUpdateRequest) =>
      api.patch<Vehicle>(`/api/admin/vehicles/${encodeURIComponent(vehicleId)}/status`, {
        status: update.status,
        oldStatus: update.oldStatus,
        comment: update.comment ?? null,
        score: update.score ?? null,
      }),
    onSuccess: () => invalidateVehicles(queryClient),
    onError: (error, { vehicleId }) => {
      if (isApiError(error) && error.status === 409) {
        return Promise.all([
          queryClient.invalidateQueries({ queryKey: vehicleKeys.admin }),
          queryClient.invalidateQueries({ queryKey: historyKey(vehicleId) }),
        ]);
      }
      return undefined;
    },
  });
}

/**
 * An admin's correction of a past edition's record (POST /api/admin/vehicles/{id}/correction): a
 * status or the check-in, with a reason. Every vehicle list and the history are refetched.
 */
export function useCorrectionMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ vehicleId, correction }: { vehicleId: string; correction: Correction }) =>
      api.post<Vehicle>(`/api/admin/vehicles/${encodeURIComponent(vehicleId)}/correction`, correction),
    onSettled: () => invalidateVehicles(queryClient),
  });
}
