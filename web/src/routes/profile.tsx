import { createFileRoute } from '@tanstack/react-router';
import { ProfilePending } from '../components/route-pending';
import { ProfilePage } from '../features/account/profile-page';
import { requireSignedIn } from '../lib/route-guards';

export const Route = createFileRoute('/profile')({
  beforeLoad: requireSignedIn,
  pendingComponent: ProfilePending,
  component: ProfilePage,
});
