import type { EarlierApplications } from '@schlosstreffen/shared/api';
import { queryOptions } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api';

/** The owner's applications in other editions and what changed since the car's last one (staff). */
export const earlierApplicationsQueryOptions = (vehicleId: string) =>
  queryOptions({
    queryKey: ['vehicles', 'earlier', vehicleId] as const,
    queryFn: ({ signal }) =>
      apiGet<EarlierApplications>(`/api/admin/vehicles/${encodeURIComponent(vehicleId)}/earlier`, { signal }),
  });
