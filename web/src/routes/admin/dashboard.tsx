import { createFileRoute } from '@tanstack/react-router';
import { isStaffRole } from '@schlosstreffen/shared';
import { adminVehiclesQueryOptions } from '../../features/admin/admin-queries';
import { AdminDashboardPage } from '../../features/admin/dashboard-page';
import { parseDashboardSearch } from '../../features/admin/dashboard-search';

export const Route = createFileRoute('/admin/dashboard')({
  // Tab, status filter and search live in the URL, so a reload keeps them.
  validateSearch: parseDashboardSearch,
  // Started here, not awaited: the page shows its skeleton cards while the list loads. Only staff
  // may read it; everyone else sees 'Zugriff verweigert' from the layout.
  loader: ({ context }) => {
    if (isStaffRole(context.user.role)) {
      void context.queryClient.ensureQueryData(adminVehiclesQueryOptions).catch(() => undefined);
    }
  },
  component: AdminDashboardPage,
});
