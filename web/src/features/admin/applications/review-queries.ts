import type {
  MyReviews,
  ReviewConflictList,
  ReviewLoad,
  ReviewSettings,
  Vehicle,
  VehicleReview,
} from '@schlosstreffen/shared/api';
import { queryOptions } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api';

export const reviewKeys = {
  all: ['reviews'] as const,
  vehicle: (vehicleId: string) => ['reviews', 'vehicle', vehicleId] as const,
  mine: ['reviews', 'mine'] as const,
  settings: ['reviews', 'settings'] as const,
  load: ['reviews', 'load'] as const,
  conflicts: ['reviews', 'conflicts'] as const,
};

export const vehiclePath = (vehicleId: string) => `/api/admin/vehicles/${encodeURIComponent(vehicleId)}`;

/** One application's reviews, categories and score (hidden from an assigned reviewer who has not submitted). */
export const vehicleReviewQueryOptions = (vehicleId: string) =>
  queryOptions({
    queryKey: reviewKeys.vehicle(vehicleId),
    queryFn: ({ signal }) => apiGet<VehicleReview>(`${vehiclePath(vehicleId)}/review`, { signal }),
  });

/** One application with its owner, as the dashboard lists it. */
export const adminVehicleQueryOptions = (vehicleId: string) =>
  queryOptions({
    queryKey: ['vehicles', 'admin-one', vehicleId] as const,
    queryFn: ({ signal }) => apiGet<Vehicle>(vehiclePath(vehicleId), { signal }),
  });

export const myReviewsQueryOptions = queryOptions({
  queryKey: reviewKeys.mine,
  queryFn: ({ signal }) => apiGet<MyReviews>('/api/admin/reviews/mine', { signal }),
});

export const reviewSettingsQueryOptions = queryOptions({
  queryKey: reviewKeys.settings,
  queryFn: ({ signal }) => apiGet<ReviewSettings>('/api/admin/reviews/settings', { signal }),
});

export const reviewLoadQueryOptions = queryOptions({
  queryKey: reviewKeys.load,
  queryFn: ({ signal }) => apiGet<ReviewLoad>('/api/admin/reviews/load', { signal }),
});

export const reviewConflictsQueryOptions = queryOptions({
  queryKey: reviewKeys.conflicts,
  queryFn: ({ signal }) => apiGet<ReviewConflictList>('/api/admin/reviews/conflicts', { signal }),
});
