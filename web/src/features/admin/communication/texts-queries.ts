import type { PublicTextsView } from '@schlosstreffen/shared/api';
import { queryOptions } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api';

export const textsKey = ['texts'] as const;

/** The chosen edition's public texts (null parts: the default text) and their last change. */
export const publicTextsQueryOptions = queryOptions({
  queryKey: textsKey,
  queryFn: ({ signal }) => apiGet<PublicTextsView>('/api/admin/texts', { signal }),
});
