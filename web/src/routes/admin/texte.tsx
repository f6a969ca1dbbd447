import { createFileRoute } from '@tanstack/react-router';
import { adminHead, startQueryFor } from '../../features/admin/admin-access';
import { publicTextsQueryOptions } from '../../features/admin/communication/texts-queries';
import { PublicTextsPage } from '../../features/admin/communication/texts-page';

// Admins only: reviewers see 'Zugriff verweigert' and never call the API.
export const Route = createFileRoute('/admin/texte')({
  loader: startQueryFor('admin', publicTextsQueryOptions),
  head: adminHead(
    'admin',
    'Texte – Adminbereich – Schlosstreffen',
    'Einführung, Veranstaltungsdetails und FAQ der Startseite pro Ausgabe bearbeiten, mit Vorschau.',
  ),
  component: PublicTextsPage,
});
