import type { AwardAdminView } from '@schlosstreffen/shared/api';
import { queryOptions } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api';

export const awardKeys = {
  view: (year: number) => ['admin', 'award', year] as const,
};

export const awardPath = (year: number) => `/api/admin/award/${year}`;

/** How often the ranking is re-read while voting is open (live ranking). */
export const AWARD_POLL_MS = 5000;

/** The edition's voting, ranking, totals and networks (admins only); re-read every few seconds while open. */
export const awardQueryOptions = (year: number) =>
  queryOptions({
    queryKey: awardKeys.view(year),
    queryFn: ({ signal }) => apiGet<AwardAdminView>(awardPath(year), { signal }),
    refetchInterval: (query: { state: { data?: AwardAdminView } }) =>
      query.state.data?.state === 'open' || (query.state.data?.final && !allCertificates(query.state.data))
        ? AWARD_POLL_MS
        : false,
  });

/** Whether every place among the first three has its certificate. */
const allCertificates = (view: AwardAdminView) =>
  view.ranking.filter((row) => row.rank <= 3).every((row) => row.certificateUrl);
