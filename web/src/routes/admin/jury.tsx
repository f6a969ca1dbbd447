import { createFileRoute } from '@tanstack/react-router';
import { AdminJuryPage } from '../../features/admin/event-day/jury-page';
import { adminHead } from '../../features/admin/admin-access';

// Admins only: reviewers see 'Zugriff verweigert' and never call the API.
export const Route = createFileRoute('/admin/jury')({
  head: adminHead(
    'admin',
    'Jury – Adminbereich – Schlosstreffen',
    'Die Jury der Ausgabe: Klassen, Bewertungsbögen, Jurymitglieder, Stand der Bewertungen und Ergebnisse.',
  ),
  component: AdminJuryPage,
});
