import { createFileRoute } from '@tanstack/react-router';
import { AdminVisitorUpdatesPage } from '../../features/admin/visitor-updates-page';
import { visitorUpdatesQueryOptions } from '../../features/admin/visitor-updates-queries';
import { adminPageHead } from '../../features/admin/admin-access';

export const Route = createFileRoute('/admin/besucher-updates')({
  // Admins only (reviewers see 'Zugriff verweigert' and must not call the API).
  loader: ({ context }) => {
    if (context.user.role !== 'admin') return;
    void context.queryClient.ensureQueryData(visitorUpdatesQueryOptions).catch(() => undefined);
  },
  head: ({ match }) =>
    adminPageHead(
      match.context.user.role,
      'admin',
      'Besucher-Updates – Adminbereich – Schlosstreffen',
      'Event-Updates an alle bestätigten Besucher schreiben, testen und versenden.',
    ),
  component: AdminVisitorUpdatesPage,
});
