import { createFileRoute } from '@tanstack/react-router';
import { ApplyPage } from '../features/apply/apply-page';
import { RoutePending } from '../components/route-pending';
import { requireSignedIn } from '../lib/route-guards';

export const Route = createFileRoute('/apply')({
  beforeLoad: requireSignedIn,
  // 'Lädt...' while the sign-in check runs (after a short delay, so a cached answer shows no flash).
  pendingComponent: RoutePending,
  pendingMs: 200,
  pendingMinMs: 300,
  component: ApplyPage,
});
