import { createFileRoute } from '@tanstack/react-router';
import { AdminAwardPage } from '../../features/admin/event-day/award-page';
import { adminHead } from '../../features/admin/admin-access';

// Admins only: reviewers see 'Zugriff verweigert' and never call the API.
export const Route = createFileRoute('/admin/publikumsliebling')({
  head: adminHead(
    'admin',
    'Publikumsliebling – Adminbereich – Schlosstreffen',
    'Die Abstimmung der Besucher: öffnen, beenden, Live-Rangliste und Urkunden.',
  ),
  component: AdminAwardPage,
});
