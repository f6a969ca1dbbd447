import type { TeamGrantInput } from '@schlosstreffen/shared';
import type { TeamChange } from '@schlosstreffen/shared/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { TEAM_PATH, teamQueryOptions } from './team-queries';

/** Every change answers with the list as it is now: it replaces the cached one. */
function useTeamChange<T>(send: (input: T) => Promise<TeamChange>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: ({ members, secondFactorRequired }) =>
      queryClient.setQueryData(teamQueryOptions.queryKey, { members, secondFactorRequired }),
  });
}

/** Gives an account with a confirmed address a staff role (POST /api/admin/team). */
export const useGrantTeamRole = () =>
  useTeamChange((input: TeamGrantInput) => api.post<TeamChange>(TEAM_PATH, input));

/** Takes a member's staff role away (DELETE /api/admin/team/:id). */
export const useRevokeTeamRole = () =>
  useTeamChange((id: string) => api.delete<TeamChange>(`${TEAM_PATH}/${id}`));

/** Resets a member's second factor (a lost device). */
export const useResetSecondFactor = () =>
  useTeamChange((id: string) => api.post<TeamChange>(`${TEAM_PATH}/${id}/reset-second-factor`, {}));
