import { createFileRoute } from '@tanstack/react-router';
import { AdminTeamPage } from '../../features/admin/management/team-page';
import { teamQueryOptions } from '../../features/admin/management/team-queries';
import { adminHead, startQueryFor } from '../../features/admin/admin-access';

// Admins only: reviewers see 'Zugriff verweigert' and never call the API.
export const Route = createFileRoute('/admin/team')({
  loader: startQueryFor('admin', teamQueryOptions),
  head: adminHead(
    'admin',
    'Team – Adminbereich – Schlosstreffen',
    'Prüfer und Admins des Schlosstreffens: Rollen vergeben und entziehen, zweiten Faktor zurücksetzen.',
  ),
  component: AdminTeamPage,
});
