import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { apiGet } from '../../lib/api';
import type { PublicVehicle, Vehicle } from '@schlosstreffen/shared/api';

export const vehicleKeys = {
  all: ['vehicles'] as const,
  mine: ['vehicles', 'mine'] as const,
  detail: (id: string) => ['vehicles', 'detail', id] as const,
  public: ['vehicles', 'public'] as const,
  admin: ['vehicles', 'admin'] as const,
};

/** The signed-in user's vehicles with media (GET /api/vehicles). */
export const myVehiclesQueryOptions = queryOptions({
  queryKey: vehicleKeys.mine,
  queryFn: () => apiGet<Vehicle[]>('/api/vehicles'),
});

export const vehicleQueryOptions = (id: string) =>
  queryOptions({
    queryKey: vehicleKeys.detail(id),
    queryFn: () => apiGet<Vehicle>(`/api/vehicles/${encodeURIComponent(id)}`),
  });

/** Confirmed vehicles for the landing page carousel. */
export const publicVehiclesQueryOptions = queryOptions({
  queryKey: vehicleKeys.public,
  queryFn: () => apiGet<PublicVehicle[]>('/api/vehicles/public'),
});

/** After a vehicle or media change: every vehicle list and detail is refetched. */
export function invalidateVehicles(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: vehicleKeys.all });
}
