import { createFileRoute } from '@tanstack/react-router';
import { AdminRetentionPage } from '../../features/admin/retention-page';
import { retentionQueryOptions } from '../../features/admin/retention-queries';
import { adminPageHead } from '../../features/admin/admin-access';

export const Route = createFileRoute('/admin/datenschutz')({
  // Admins only (reviewers see 'Zugriff verweigert' and must not call the API). Started, not
  // awaited: the page shows its skeletons while the overview loads.
  loader: ({ context }) => {
    if (context.user.role !== 'admin') return;
    void context.queryClient.ensureQueryData(retentionQueryOptions).catch(() => undefined);
  },
  head: ({ match }) =>
    adminPageHead(
      match.context.user.role,
      'admin',
      'Datenschutz – Adminbereich – Schlosstreffen',
      'Speicherfristen des Schlosstreffens und was der letzte Löschlauf entfernt hat.',
    ),
  component: AdminRetentionPage,
});
