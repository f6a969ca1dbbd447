import type {
  JuryClassInput,
  JuryCloseInput,
  JuryCorrectionInput,
  JuryJudgeInput,
} from '@schlosstreffen/shared';
import type {
  JuryAdminView,
  JuryClassAdminView,
  JuryClassProgress,
  JuryJudgeAdded,
} from '@schlosstreffen/shared/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { juryKeys, juryPath } from './jury-queries';

/** A mutation of the edition's jury; the view (and the ceremony) is read again afterwards. */
function useJuryMutation<TInput, TAnswer>(year: number, send: (input: TInput) => Promise<TAnswer>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSettled: () => queryClient.invalidateQueries({ queryKey: juryKeys.view(year) }),
  });
}

/** Creates a class (no id) or saves one. */
export const useSaveJuryClass = (year: number) =>
  useJuryMutation(year, ({ id, input }: { id?: string; input: JuryClassInput }) =>
    id
      ? api.patch<JuryClassAdminView>(`${juryPath(year)}/classes/${encodeURIComponent(id)}`, input)
      : api.post<JuryClassAdminView>(`${juryPath(year)}/classes`, input),
  );

export const useDeleteJuryClass = (year: number) =>
  useJuryMutation(year, (id: string) =>
    api.delete<void>(`${juryPath(year)}/classes/${encodeURIComponent(id)}`),
  );

/** Makes an account a judge, or (`invite`) invites the address by mail. */
export const useAddJudge = (year: number) =>
  useJuryMutation(year, (input: JuryJudgeInput) =>
    api.post<JuryJudgeAdded>(`${juryPath(year)}/judges`, input),
  );

export const useJudgeClasses = (year: number) =>
  useJuryMutation(year, ({ userId, classIds }: { userId: string; classIds: string[] }) =>
    api.patch<void>(`${juryPath(year)}/judges/${encodeURIComponent(userId)}`, { classIds }),
  );

export const useRemoveJudge = (year: number) =>
  useJuryMutation(year, (userId: string) =>
    api.delete<void>(`${juryPath(year)}/judges/${encodeURIComponent(userId)}`),
  );

export const useWithdrawInvite = (year: number) =>
  useJuryMutation(year, (id: string) =>
    api.delete<void>(`${juryPath(year)}/invites/${encodeURIComponent(id)}`),
  );

/** Closes a class into its ranking (a 409 names missing scores or ties). */
export const useCloseJuryClass = (year: number) =>
  useJuryMutation(year, ({ classId, body }: { classId: string; body: JuryCloseInput }) =>
    api.post<JuryClassProgress>(`/api/jury/classes/${encodeURIComponent(classId)}/close`, body),
  );

/** 'Ergebnisse veröffentlichen': every class closed, the results go public. */
export function usePublishJury(year: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<JuryAdminView>(`${juryPath(year)}/publish`, {}),
    onSuccess: (view) => queryClient.setQueryData(juryKeys.view(year), view),
    onSettled: () => queryClient.invalidateQueries({ queryKey: juryKeys.view(year) }),
  });
}

/** An admin's correction of a frozen class's places, with a reason. */
export function useJuryCorrection(year: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (correction: JuryCorrectionInput) =>
      api.post<JuryAdminView>(`${juryPath(year)}/correction`, correction),
    onSuccess: (view) => queryClient.setQueryData(juryKeys.view(year), view),
    onSettled: () => queryClient.invalidateQueries({ queryKey: juryKeys.view(year) }),
  });
}
