import { createFileRoute } from '@tanstack/react-router';
import { AdminVisitorUpdatesPage } from '../../features/admin/communication/visitor-updates-page';
import { visitorUpdatesQueryOptions } from '../../features/admin/communication/visitor-updates-queries';
import { adminHead, startQueryFor } from '../../features/admin/admin-access';

// Admins only: reviewers see 'Zugriff verweigert' and never call the API.
export const Route = createFileRoute('/admin/besucher-updates')({
  loader: startQueryFor('admin', visitorUpdatesQueryOptions),
  head: adminHead(
    'admin',
    'Besucher-Updates – Adminbereich – Schlosstreffen',
    'Event-Updates an alle bestätigten Besucher schreiben, testen und versenden.',
  ),
  component: AdminVisitorUpdatesPage,
});
