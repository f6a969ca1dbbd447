import type { TeamList } from '@schlosstreffen/shared/api';
import { queryOptions } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api';

export const TEAM_PATH = '/api/admin/team';

/** Staff accounts with role and second factor (admins only). */
export const teamQueryOptions = queryOptions({
  queryKey: ['admin', 'team'] as const,
  queryFn: () => apiGet<TeamList>(TEAM_PATH),
});
