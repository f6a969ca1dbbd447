import { createFileRoute } from '@tanstack/react-router';
import { AdminRetentionPage } from '../../features/admin/management/retention-page';
import { retentionQueryOptions } from '../../features/admin/management/retention-queries';
import { adminHead, startQueryFor } from '../../features/admin/admin-access';

// Admins only: reviewers see 'Zugriff verweigert' and never call the API.
export const Route = createFileRoute('/admin/datenschutz')({
  loader: startQueryFor('admin', retentionQueryOptions),
  head: adminHead(
    'admin',
    'Datenschutz – Adminbereich – Schlosstreffen',
    'Speicherfristen des Schlosstreffens und was der letzte Löschlauf entfernt hat.',
  ),
  component: AdminRetentionPage,
});
