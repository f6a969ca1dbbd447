import type { AdminStatusUpdate, StatusHistoryEntry } from '@schlosstreffen/shared';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, apiGet, isApiError } from '../../lib/api';
import type { Vehicle } from '../../lib/types';
import { invalidateVehicles, vehicleKeys } from '../vehicles/vehicle-queries';

/** Under `vehicles`, so `invalidateVehicles` refreshes the history along with the lists. */
export const historyKey = (vehicleId: string) => ['vehicles', 'history', vehicleId] as const;

/** Every vehicle with owner, media and invitation (GET /api/admin/vehicles; staff only). */
export const adminVehiclesQueryOptions = queryOptions({
  queryKey: vehicleKeys.admin,
  queryFn: () => apiGet<Vehicle[]>('/api/admin/vehicles'),
});

export const vehicleHistoryQueryOptions = (vehicleId: string) =>
  queryOptions({
    queryKey: historyKey(vehicleId),
    queryFn: () => apiGet<StatusHistoryEntry[]>(`/api/vehicles/${encodeURIComponent(vehicleId)}/reviews`),
  });

/** The body of PATCH /api/admin/vehicles/{id}/status; empty note and score travel as null. */
export interface StatusUpdateRequest {
  vehicleId: string;
  update: AdminStatusUpdate;
}

/**
 * Changes a vehicle's status. Afterwards both vehicle lists and the history are refetched (spec
 * section 4); after a 409 (someone else changed the status first) the list is reloaded too, so the
 * dialog shows the status that is current now.
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

/** Number of media over all vehicles: the Medien tab's count without loading the media library. */
export function countMedia(vehicles: readonly Pick<Vehicle, 'media'>[]): number {
  return vehicles.reduce((sum, vehicle) => sum + vehicle.media.length, 0);
}
