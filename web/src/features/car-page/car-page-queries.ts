import { brandAndModel, vehicleDisplayName } from '@schlosstreffen/shared';
import type { CarPage } from '@schlosstreffen/shared/api';
import { queryOptions } from '@tanstack/react-query';
import { apiGet } from '../../lib/api';

/** A car's public page at one meeting (public). Under 'vehicles': it changes with the car. */
export const carPageQueryOptions = (year: number, startNumber: number) =>
  queryOptions({
    queryKey: ['vehicles', 'page', year, startNumber] as const,
    queryFn: ({ signal }) => apiGet<CarPage>(`/api/editions/${year}/vehicles/${startNumber}`, { signal }),
  });

/**
 * The heading of a car's page: its name, else brand and model (a car shown without data: brand and
 * model). Here, not beside the page: the route's head uses it, and the route's head is in the app's
 * chunk while the page loads apart.
 */
export const carPageTitle = (page: CarPage) =>
  page.vehicle ? vehicleDisplayName(page.vehicle) : brandAndModel(page);
