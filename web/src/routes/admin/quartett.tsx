import { createFileRoute } from '@tanstack/react-router';
import { AdminQuartettPage } from '../../features/admin/quartett-page';
import { quartettSetsQueryOptions } from '../../features/admin/quartett-queries';
import { adminPageHead } from '../../features/admin/admin-access';

export const Route = createFileRoute('/admin/quartett')({
  // Admins only (reviewers see 'Zugriff verweigert' and must not call the API). Started, not
  // awaited: the page shows its skeletons while the list loads.
  loader: ({ context }) => {
    if (context.user.role !== 'admin') return;
    void context.queryClient.ensureQueryData(quartettSetsQueryOptions).catch(() => undefined);
  },
  head: ({ match }) =>
    adminPageHead(
      match.context.user.role,
      'admin',
      'Auto-Quartett – Adminbereich – Schlosstreffen',
      'Druckexporte des Schlosstreffen Auto-Quartetts erstellen, herunterladen und freigeben.',
    ),
  component: AdminQuartettPage,
});
