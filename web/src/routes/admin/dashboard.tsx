import { createFileRoute } from '@tanstack/react-router';
import { isStaffRole } from '@schlosstreffen/shared';
import { adminVehiclesQueryOptions, mediaCountQueryOptions } from '../../features/admin/admin-queries';
import { AdminDashboardPage } from '../../features/admin/dashboard-page';
import { parseDashboardSearch } from '../../features/admin/dashboard-search';
import { adminHead } from '../../features/admin/admin-access';

export const Route = createFileRoute('/admin/dashboard')({
  // Tab, status filter, search and sort live in the URL, so a reload keeps them.
  validateSearch: parseDashboardSearch,
  // Started here, not awaited (the list and the Medien tab's count): the page shows its skeleton
  // cards while the list loads. Only staff may read them; everyone else sees 'Zugriff verweigert'
  // from the layout.
  loaderDeps: ({ search }) => ({
    status: search.status ?? ('all' as const),
    q: search.q ?? '',
    sort: search.sort ?? ('newest' as const),
  }),
  loader: ({ context, deps }) => {
    if (isStaffRole(context.user.role)) {
      void context.queryClient
        .ensureInfiniteQueryData(adminVehiclesQueryOptions(deps))
        .catch(() => undefined);
      void context.queryClient.ensureQueryData(mediaCountQueryOptions).catch(() => undefined);
    }
  },
  head: adminHead(
    'staff',
    'Admin Dashboard – Schlosstreffen',
    'Bewerbungen für das Schlosstreffen prüfen, Status ändern und alle hochgeladenen Fahrzeugbilder einsehen.',
  ),
  component: AdminDashboardPage,
});
