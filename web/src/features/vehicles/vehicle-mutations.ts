import type { OwnerStatus, SubmissionConsents } from '@schlosstreffen/shared';
import { useMutation, useMutationState, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import type { InvitationDeclineResult, Vehicle } from '@schlosstreffen/shared/api';
import { invalidateVehicles } from './vehicle-queries';

const vehicleMutationKeys = {
  ownerStatus: ['vehicles', 'owner-status'] as const,
  decline: ['vehicles', 'decline'] as const,
  delete: ['vehicles', 'delete'] as const,
};

export interface OwnerStatusChange {
  id: string;
  /** submitted (Einreichen), draft (Zurückziehen) or confirmed (Teilnahme bestätigen). */
  status: OwnerStatus;
  /** With 'submitted': the three consents the owner ticked, sent as the wizard names them. */
  consents?: SubmissionConsents;
}

const vehiclePath = (id: string) => `/api/vehicles/${encodeURIComponent(id)}`;

/**
 * The owner's status change: PATCH /api/vehicles/{id} with `{ status }` (a submission with its
 * consents). The vehicle lists are refetched before the mutation settles, so buttons stay pending
 * until the new state shows.
 */
export function useOwnerStatusMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: vehicleMutationKeys.ownerStatus,
    mutationFn: ({ id, status, consents }: OwnerStatusChange) =>
      api.patch<Vehicle>(vehiclePath(id), { status, ...consents }),
    onSuccess: () => invalidateVehicles(queryClient),
  });
}

/** POST /api/vehicles/{id}/decline: the owner gives up an invitation or confirmed place. */
export function useDeclineMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: vehicleMutationKeys.decline,
    mutationFn: (id: string) => api.post<InvitationDeclineResult>(`${vehiclePath(id)}/decline`),
    onSuccess: () => invalidateVehicles(queryClient),
  });
}

/**
 * POST /api/vehicles/{id}/reapply: the car of an earlier application applies for the current
 * edition as a draft (data and photos carried over; its submission asks for the consents); lists
 * refetched.
 */
export function useReapplyMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.post<Vehicle>(`${vehiclePath(id)}/reapply`),
    onSuccess: () => invalidateVehicles(queryClient),
  });
}

/** DELETE /api/vehicles/{id} (drafts only), then the vehicle lists are refetched. */
export function useDeleteVehicleMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: vehicleMutationKeys.delete,
    mutationFn: (id: string) => api.delete<void>(vehiclePath(id)),
    onSuccess: () => invalidateVehicles(queryClient),
  });
}

/** Status changes in flight, by vehicle id (several cards may be busy at once). */
export function usePendingStatusChanges(): Map<string, OwnerStatus> {
  const pending = useMutationState({
    filters: { mutationKey: vehicleMutationKeys.ownerStatus, status: 'pending' },
    select: (mutation) => mutation.state.variables as OwnerStatusChange | undefined,
  });
  return new Map(pending.flatMap((change) => (change ? [[change.id, change.status] as const] : [])));
}

/** Ids of vehicles whose deletion is in flight. */
export function usePendingDeletions(): Set<string> {
  const pending = useMutationState({
    filters: { mutationKey: vehicleMutationKeys.delete, status: 'pending' },
    select: (mutation) => mutation.state.variables as string | undefined,
  });
  return new Set(pending.filter((id): id is string => typeof id === 'string'));
}
