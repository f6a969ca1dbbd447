import { createFileRoute } from '@tanstack/react-router';
import { RoutePending } from '../components/route-pending';
import { AdminLayout } from '../features/admin/admin-layout';
import { requireSignedIn } from '../lib/route-guards';

export const Route = createFileRoute('/admin')({
  beforeLoad: requireSignedIn,
  pendingComponent: RoutePending,
  // A staff page that is in within half a second shows no spinner: shown, it would stay for at least
  // pendingMinMs and hold back a page that was ready meanwhile.
  pendingMs: 500,
  pendingMinMs: 300,
  component: AdminLayout,
});
