import type { CarPage } from '@schlosstreffen/shared/api';
import { queryOptions } from '@tanstack/react-query';
import { apiGet } from '../../lib/api';

/** A car's public page at one meeting (public). Under 'vehicles': it changes with the car. */
export const carPageQueryOptions = (year: number, startNumber: number) =>
  queryOptions({
    queryKey: ['vehicles', 'page', year, startNumber] as const,
    queryFn: ({ signal }) => apiGet<CarPage>(`/api/editions/${year}/vehicles/${startNumber}`, { signal }),
  });
