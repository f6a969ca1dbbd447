import type { AdminEditionList } from '@schlosstreffen/shared/api';
import { queryOptions } from '@tanstack/react-query';
import { apiGet } from '../../lib/api';

export const EDITIONS_PATH = '/api/admin/editions';

export const editionKeys = { list: ['editions'] as const };

/** Every edition, newest first, with its state and whether the public site shows it (staff). */
export const editionsQueryOptions = queryOptions({
  queryKey: editionKeys.list,
  queryFn: ({ signal }) => apiGet<AdminEditionList>(EDITIONS_PATH, { signal }),
});
