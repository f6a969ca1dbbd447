import { createFileRoute } from '@tanstack/react-router';
import { isStaffRole } from '@schlosstreffen/shared';
import {
  adminVehiclesQueryOptions,
  mediaCountQueryOptions,
} from '../../features/admin/applications/admin-queries';
import { AdminDashboardPage } from '../../features/admin/applications/dashboard-page';
import { parseDashboardSearch } from '../../features/admin/applications/dashboard-search';
import { adminHead } from '../../features/admin/admin-access';

/** How long the dashboard waits for its list before it shows its skeleton instead. */
const LIST_WAIT_MS = 250;

export const Route = createFileRoute('/admin/dashboard')({
  // Tab, status filter, search and sort live in the URL, so a reload keeps them.
  validateSearch: parseDashboardSearch,
  // The list and the Medien tab's count are asked for here, while the page's code is still on its
  // way. Opening the page, a list that is in within LIST_WAIT_MS is painted with the page's first
  // frame; a slower one follows the page's skeleton cards. A filter or search changed on the page
  // waits for nothing (the page shows the change itself). Only staff may read them; everyone else
  // sees 'Zugriff verweigert' from the layout.
  loaderDeps: ({ search }) => ({
    status: search.status ?? ('all' as const),
    q: search.q ?? '',
    sort: search.sort ?? ('newest' as const),
  }),
  loader: async ({ context, deps, cause }) => {
    if (!isStaffRole(context.user.role)) return;
    void context.queryClient.ensureQueryData(mediaCountQueryOptions).catch(() => undefined);
    const list = context.queryClient
      .ensureInfiniteQueryData(adminVehiclesQueryOptions(deps))
      .catch(() => undefined);
    if (cause === 'enter')
      await Promise.race([list, new Promise((resolve) => setTimeout(resolve, LIST_WAIT_MS))]);
  },
  head: adminHead(
    'staff',
    'Admin Dashboard – Schlosstreffen',
    'Bewerbungen für das Schlosstreffen prüfen, Status ändern und alle hochgeladenen Fahrzeugbilder einsehen.',
  ),
  component: AdminDashboardPage,
});
