import { createFileRoute } from '@tanstack/react-router';
import { ProfilePending } from '../components/route-pending';
import { ProfilePage } from '../features/account/profile-page';
import { myConsentsQueryOptions, myExportQueryOptions } from '../features/account/privacy-queries';
import { requireSignedIn } from '../lib/route-guards';
import { pageHead } from '../lib/page-head';

export const Route = createFileRoute('/profile')({
  beforeLoad: requireSignedIn,
  // Started, not awaited: the consent and export cards show their loading states meanwhile.
  loader: ({ context }) => {
    void context.queryClient.ensureQueryData(myConsentsQueryOptions).catch(() => undefined);
    void context.queryClient.ensureQueryData(myExportQueryOptions).catch(() => undefined);
  },
  pendingComponent: ProfilePending,
  head: () =>
    pageHead(
      'Mein Profil – Schlosstreffen',
      'Persönliche Daten, Passwort, Einwilligungen und Datenexport deines Schlosstreffen-Kontos.',
    ),
  component: ProfilePage,
});
