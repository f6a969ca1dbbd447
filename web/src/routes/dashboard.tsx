import { createFileRoute } from '@tanstack/react-router';
import { RoutePending } from '../components/route-pending';
import { DashboardPage } from '../features/dashboard/dashboard-page';
import { myVehiclesQueryOptions } from '../features/vehicles/vehicle-queries';
import { requireSignedIn } from '../lib/route-guards';
import { pageHead } from '../lib/page-head';

export const Route = createFileRoute('/dashboard')({
  beforeLoad: requireSignedIn,
  // Started here, not awaited: the page shows its skeleton cards while the list loads.
  loader: ({ context }) => {
    void context.queryClient.ensureQueryData(myVehiclesQueryOptions).catch(() => undefined);
  },
  // 'Lädt...' while the sign-in check runs (after a short delay, so a cached answer shows no flash).
  pendingComponent: RoutePending,
  pendingMs: 200,
  pendingMinMs: 300,
  head: () =>
    pageHead(
      'Meine Fahrzeuge – Schlosstreffen',
      'Verwalten Sie Ihre Fahrzeuge und Bewerbungen für das Schlosstreffen: bearbeiten, einreichen, zurückziehen oder löschen.',
    ),
  component: DashboardPage,
});
