import { createFileRoute } from '@tanstack/react-router';
import { AdminQuartettPage } from '../../features/admin/event-day/quartett-page';
import { quartettSetsQueryOptions } from '../../features/admin/event-day/quartett-queries';
import { adminHead, startQueryFor } from '../../features/admin/admin-access';

// Admins only: reviewers see 'Zugriff verweigert' and never call the API.
export const Route = createFileRoute('/admin/quartett')({
  loader: startQueryFor('admin', quartettSetsQueryOptions),
  head: adminHead(
    'admin',
    'Auto-Quartett – Adminbereich – Schlosstreffen',
    'Druckexporte des Schlosstreffen Auto-Quartetts erstellen, herunterladen und freigeben.',
  ),
  component: AdminQuartettPage,
});
