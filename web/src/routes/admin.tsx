import { createFileRoute } from '@tanstack/react-router';
import { RoutePending } from '../components/route-pending';
import { AdminLayout } from '../features/admin/admin-layout';
import { requireSignedIn } from '../lib/route-guards';

export const Route = createFileRoute('/admin')({
  beforeLoad: requireSignedIn,
  pendingComponent: RoutePending,
  pendingMs: 200,
  pendingMinMs: 300,
  component: AdminLayout,
});
