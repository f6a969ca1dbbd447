import { createFileRoute } from '@tanstack/react-router';
import { AdminRetentionPage } from '../../features/admin/retention-page';
import { retentionQueryOptions } from '../../features/admin/retention-queries';

export const Route = createFileRoute('/admin/datenschutz')({
  // Admins only (reviewers see 'Zugriff verweigert' and must not call the API). Started, not
  // awaited: the page shows its skeletons while the overview loads.
  loader: ({ context }) => {
    if (context.user.role !== 'admin') return;
    void context.queryClient.ensureQueryData(retentionQueryOptions).catch(() => undefined);
  },
  component: AdminRetentionPage,
});
