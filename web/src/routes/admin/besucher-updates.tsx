import { createFileRoute } from '@tanstack/react-router';
import { AdminVisitorUpdatesPage } from '../../features/admin/visitor-updates-page';
import { visitorUpdatesQueryOptions } from '../../features/admin/visitor-updates-queries';

export const Route = createFileRoute('/admin/besucher-updates')({
  // Admins only (reviewers see 'Zugriff verweigert' and must not call the API).
  loader: ({ context }) => {
    if (context.user.role !== 'admin') return;
    void context.queryClient.ensureQueryData(visitorUpdatesQueryOptions).catch(() => undefined);
  },
  component: AdminVisitorUpdatesPage,
});
