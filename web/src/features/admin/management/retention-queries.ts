import type { RetentionOverview } from '@schlosstreffen/shared/api';
import { queryOptions } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api';

/** The retention periods in force and what the last run removed (admins only). */
export const retentionQueryOptions = queryOptions({
  queryKey: ['admin', 'retention'] as const,
  queryFn: () => apiGet<RetentionOverview>('/api/admin/retention'),
});
