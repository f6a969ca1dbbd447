import { createFileRoute } from '@tanstack/react-router';
import { AdminBesucherPage } from '../../features/admin/communication/besucher-page';
import { adminVisitorsQueryOptions } from '../../features/admin/communication/visitors-queries';
import { adminHead, startQueryFor } from '../../features/admin/admin-access';

// Admins only: reviewers see 'Zugriff verweigert' and never call the API.
export const Route = createFileRoute('/admin/besucher')({
  loader: startQueryFor('admin', adminVisitorsQueryOptions),
  head: adminHead(
    'admin',
    'Besucher – Adminbereich – Schlosstreffen',
    'Besuchervoranmeldungen des Schlosstreffens mit Bestätigungsstatus und CSV-Export.',
  ),
  component: AdminBesucherPage,
});
