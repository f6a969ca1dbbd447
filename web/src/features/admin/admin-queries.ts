import type { StatusHistoryEntry } from '@schlosstreffen/shared';
import { queryOptions } from '@tanstack/react-query';
import { apiGet } from '../../lib/api';
import type { Consent, Vehicle } from '@schlosstreffen/shared/api';
import { vehicleKeys } from '../vehicles/vehicle-queries';

/**
 * The admin area's reads. Route loaders use them, so they are part of the entry bundle: writes are
 * in admin-mutations.ts.
 */

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

/** The consents recorded for a vehicle (staff and the owner); under `vehicles` like the history. */
export const vehicleConsentsQueryOptions = (vehicleId: string) =>
  queryOptions({
    queryKey: ['vehicles', 'consents', 'vehicle', vehicleId] as const,
    queryFn: () => apiGet<Consent[]>(`/api/vehicles/${encodeURIComponent(vehicleId)}/consents`),
  });

/** Number of media over all vehicles: the Medien tab's count without loading the media library. */
export function countMedia(vehicles: readonly Pick<Vehicle, 'media'>[]): number {
  return vehicles.reduce((sum, vehicle) => sum + vehicle.media.length, 0);
}
