import { createFileRoute } from '@tanstack/react-router';
import { AdminPaymentsPage } from '../../features/admin/applications/payments-page';
import { adminHead } from '../../features/admin/admin-access';

// Admins only: reviewers see 'Zugriff verweigert' and never call the API.
export const Route = createFileRoute('/admin/zahlungen')({
  head: adminHead(
    'admin',
    'Zahlungen – Adminbereich – Schlosstreffen',
    'Das Startgeld der Ausgabe: Kontoauszüge einlesen, Buchungen zuordnen, Startgeld erlassen, Erstattungen und Kassenbericht.',
  ),
  component: AdminPaymentsPage,
});
