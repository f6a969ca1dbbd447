import { createFileRoute } from '@tanstack/react-router';
import { AdminBesucherPage } from '../../features/admin/besucher-page';
import { adminVisitorsQueryOptions } from '../../features/admin/visitors-queries';
import { adminPageHead } from '../../features/admin/admin-access';

export const Route = createFileRoute('/admin/besucher')({
  // Admins only (reviewers see 'Zugriff verweigert' and must not call the API). Started, not
  // awaited: the page shows its skeletons while the list loads.
  loader: ({ context }) => {
    if (context.user.role !== 'admin') return;
    void context.queryClient.ensureQueryData(adminVisitorsQueryOptions).catch(() => undefined);
  },
  head: ({ match }) =>
    adminPageHead(
      match.context.user.role,
      'admin',
      'Besucher – Adminbereich – Schlosstreffen',
      'Besuchervoranmeldungen des Schlosstreffens mit Bestätigungsstatus und CSV-Export.',
    ),
  component: AdminBesucherPage,
});
