import { createFileRoute } from '@tanstack/react-router';
import { ProfileLoading, ProfilePage } from '../features/account/profile-page';
import { requireSignedIn } from '../lib/route-guards';

export const Route = createFileRoute('/profile')({
  beforeLoad: requireSignedIn,
  pendingComponent: ProfileLoading,
  component: ProfilePage,
});
