import { createFileRoute } from '@tanstack/react-router';
import { mayAccess, adminHead } from '../../features/admin/admin-access';
import { AdminAuditPage } from '../../features/admin/management/audit-page';
import { auditQueryOptions } from '../../features/admin/management/audit-queries';
import { filtersOf, parseAuditSearch } from '../../features/admin/management/audit-search';

// Admins only: reviewers see 'Zugriff verweigert' and never call the API.
export const Route = createFileRoute('/admin/protokoll')({
  // The filters live in the URL, so a reload keeps them.
  validateSearch: parseAuditSearch,
  loaderDeps: ({ search }) => filtersOf(search),
  loader: ({ context, deps }) => {
    if (!mayAccess(context.user.role, 'admin')) return;
    void context.queryClient.ensureInfiniteQueryData(auditQueryOptions(deps)).catch(() => undefined);
  },
  head: adminHead(
    'admin',
    'Protokoll – Adminbereich – Schlosstreffen',
    'Wer im Team wann personenbezogene Daten gesammelt gelesen oder Einstellungen geändert hat.',
  ),
  component: AdminAuditPage,
});
