import { createFileRoute } from '@tanstack/react-router';
import { ProfilePending } from '../components/route-pending';
import { ProfilePage } from '../features/account/profile-page';
import { myConsentsQueryOptions, myExportQueryOptions } from '../features/account/privacy-queries';
import { requireSignedIn } from '../lib/route-guards';

export const Route = createFileRoute('/profile')({
  beforeLoad: requireSignedIn,
  // Started, not awaited: the consent and export cards show their loading states meanwhile.
  loader: ({ context }) => {
    void context.queryClient.ensureQueryData(myConsentsQueryOptions).catch(() => undefined);
    void context.queryClient.ensureQueryData(myExportQueryOptions).catch(() => undefined);
  },
  pendingComponent: ProfilePending,
  component: ProfilePage,
});
