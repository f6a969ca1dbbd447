import type { AdminEditionList } from '@schlosstreffen/shared/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { EDITIONS_PATH, editionKeys } from '../editions-queries';

type EditionAnswer = AdminEditionList & { message: string };

/** The next edition (POST /api/admin/editions); the answer carries the list. */
export function useCreateEdition() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { year: number; deadline?: string; start?: string; end?: string }) =>
      api.post<EditionAnswer>(EDITIONS_PATH, body),
    onSuccess: (answer) => queryClient.setQueryData(editionKeys.list, { editions: answer.editions }),
  });
}

/** Changes an edition (PATCH /api/admin/editions/:year); the answer carries the list. */
export function useUpdateEdition() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ year, ...body }: { year: number } & Record<string, unknown>) =>
      api.patch<EditionAnswer>(`${EDITIONS_PATH}/${year}`, body),
    onSuccess: (answer) => queryClient.setQueryData(editionKeys.list, { editions: answer.editions }),
  });
}

/** Opens applications or makes an edition current, now or at a set moment. */
export function useEditionAction(action: 'open' | 'current') {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ year, at }: { year: number; at?: string }) =>
      api.post<EditionAnswer>(`${EDITIONS_PATH}/${year}/${action}`, at ? { at } : {}),
    onSuccess: (answer) => queryClient.setQueryData(editionKeys.list, { editions: answer.editions }),
  });
}
