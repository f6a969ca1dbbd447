import { createFileRoute } from '@tanstack/react-router';
import { CeremonyPage } from '../../features/admin/event-day/jury-ceremony';
import { adminHead } from '../../features/admin/admin-access';

// Admins only: reviewers see 'Zugriff verweigert' and never call the API.
export const Route = createFileRoute('/admin/siegerehrung')({
  head: adminHead(
    'admin',
    'Siegerehrung – Adminbereich – Schlosstreffen',
    'Die Siegerehrung für den Beamer: jede Klasse vom letzten bis zum ersten Platz, dann der Publikumsliebling.',
  ),
  component: CeremonyPage,
});
