import type { JuryAdminView, JuryCeremony } from '@schlosstreffen/shared/api';
import { queryOptions } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api';

export const juryKeys = {
  view: (year: number) => ['admin', 'jury', year] as const,
  ceremony: (year: number) => ['admin', 'jury', year, 'ceremony'] as const,
};

export const juryPath = (year: number) => `/api/admin/jury/${year}`;

/** The edition's jury: classes with their progress, judges, invitations, biases, corrections (admins only). */
export const juryQueryOptions = (year: number) =>
  queryOptions({
    queryKey: juryKeys.view(year),
    queryFn: ({ signal }) => apiGet<JuryAdminView>(juryPath(year), { signal }),
  });

/** What the ceremony reveals: the classes' places and the visitors' award (admins only). */
export const ceremonyQueryOptions = (year: number) =>
  queryOptions({
    queryKey: juryKeys.ceremony(year),
    queryFn: ({ signal }) => apiGet<JuryCeremony>(`${juryPath(year)}/ceremony`, { signal }),
    // The screen stays as it is while the projector shows it.
    refetchOnWindowFocus: false,
  });
