import { createFileRoute } from '@tanstack/react-router';
import { AdminBesucherPage } from '../../features/admin/besucher-page';
import { adminVisitorsQueryOptions } from '../../features/admin/visitors-queries';

export const Route = createFileRoute('/admin/besucher')({
  // Admins only (reviewers see 'Zugriff verweigert' and must not call the API). Started, not
  // awaited: the page shows its skeletons while the list loads.
  loader: ({ context }) => {
    if (context.user.role !== 'admin') return;
    void context.queryClient.ensureQueryData(adminVisitorsQueryOptions).catch(() => undefined);
  },
  component: AdminBesucherPage,
});
