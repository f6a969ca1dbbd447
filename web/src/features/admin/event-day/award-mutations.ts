import type { AwardCorrectionInput, AwardMomentsInput } from '@schlosstreffen/shared';
import type { ServerMessage } from '@schlosstreffen/shared/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { awardKeys, awardPath } from './award-queries';

/** Opens or closes the edition's voting; the view is read again. */
export function useAwardAction(year: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: 'open' | 'close') => api.post<ServerMessage>(`${awardPath(year)}/${action}`, {}),
    onSettled: () => queryClient.invalidateQueries({ queryKey: awardKeys.view(year) }),
  });
}

/** Saves the moments at which the scheduler opens and closes voting. */
export function useAwardMoments(year: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (moments: AwardMomentsInput) => api.patch<ServerMessage>(awardPath(year), moments),
    onSettled: () => queryClient.invalidateQueries({ queryKey: awardKeys.view(year) }),
  });
}

/** An admin's correction of the final totals (a car's votes, with a reason); the view is read again. */
export function useAwardCorrection(year: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (correction: AwardCorrectionInput) =>
      api.post<ServerMessage>(`${awardPath(year)}/correction`, correction),
    onSettled: () => queryClient.invalidateQueries({ queryKey: awardKeys.view(year) }),
  });
}
