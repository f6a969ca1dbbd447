import type { ReviewSettingsInput, ReviewSubmission } from '@schlosstreffen/shared';
import type { ReviewConflictList, ReviewSettings, VehicleReview } from '@schlosstreffen/shared/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { historyKey } from './admin-queries';
import { reviewKeys, vehiclePath } from './review-queries';

/** The review's changes (kept apart from the queries, which the routes' loaders take into the app's chunk). */

/** Submits the signed-in reviewer's review; the review, the history and the lists are read again. */
export function useSubmitReview(vehicleId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (review: ReviewSubmission) =>
      api.post<VehicleReview>(`${vehiclePath(vehicleId)}/review`, review),
    onSuccess: (view) => {
      queryClient.setQueryData(reviewKeys.vehicle(vehicleId), view);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: reviewKeys.mine }),
        queryClient.invalidateQueries({ queryKey: reviewKeys.load }),
        queryClient.invalidateQueries({ queryKey: historyKey(vehicleId) }),
      ]);
    },
  });
}

/** An admin moves an open review to someone else. */
export function useReassign(vehicleId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (move: { from: string; to: string }) =>
      api.post<VehicleReview>(`${vehiclePath(vehicleId)}/assignments`, move),
    onSuccess: (view) => {
      queryClient.setQueryData(reviewKeys.vehicle(vehicleId), view);
      return queryClient.invalidateQueries({ queryKey: reviewKeys.load });
    },
  });
}

export function useSaveReviewSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: ReviewSettingsInput) =>
      api.put<ReviewSettings>('/api/admin/reviews/settings', settings),
    onSuccess: (settings) => {
      queryClient.setQueryData(reviewKeys.settings, settings);
      return queryClient.invalidateQueries({ queryKey: reviewKeys.all });
    },
  });
}

export function useDeclareConflict() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (email: string) => api.post<ReviewConflictList>('/api/admin/reviews/conflicts', { email }),
    onSuccess: (list) => {
      queryClient.setQueryData(reviewKeys.conflicts, list);
      return queryClient.invalidateQueries({ queryKey: reviewKeys.mine });
    },
  });
}

export function useWithdrawConflict() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api.delete<ReviewConflictList>(`/api/admin/reviews/conflicts/${encodeURIComponent(id)}`),
    onSuccess: (list) => {
      queryClient.setQueryData(reviewKeys.conflicts, list);
      return queryClient.invalidateQueries({ queryKey: reviewKeys.mine });
    },
  });
}
