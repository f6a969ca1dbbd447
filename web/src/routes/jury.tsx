import { createFileRoute } from '@tanstack/react-router';
import { RoutePending } from '../components/route-pending';
import { JuryLayout } from '../features/jury/jury-layout';
import { addOfflineUser, onSignOut } from '../lib/current-user';
import { requireSignedIn } from '../lib/route-guards';

// The jury's data on this device: without network its screens open for the judge who loaded them,
// and signing out deletes it (both load the jury's code only when they run).
addOfflineUser(() => import('../features/jury/offline-jury-user').then((jury) => jury.offlineJuryUser()));
onSignOut(() => import('../features/jury/offline-jury-user').then((jury) => jury.clearJuryDevice()));

export const Route = createFileRoute('/jury')({
  beforeLoad: requireSignedIn,
  pendingComponent: RoutePending,
  pendingMs: 500,
  pendingMinMs: 300,
  component: JuryLayout,
});
