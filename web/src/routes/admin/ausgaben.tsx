import { createFileRoute } from '@tanstack/react-router';
import { adminHead, startQueryFor } from '../../features/admin/admin-access';
import { AdminEditionsPage } from '../../features/admin/management/editions-page';
import { editionsQueryOptions } from '../../features/admin/editions-queries';

// Admins only: reviewers see 'Zugriff verweigert' and never call the API.
export const Route = createFileRoute('/admin/ausgaben')({
  loader: startQueryFor('admin', editionsQueryOptions),
  head: adminHead(
    'admin',
    'Ausgaben – Adminbereich – Schlosstreffen',
    'Die Schlosstreffen Jahr für Jahr: nächste Ausgabe anlegen, Bewerbung öffnen, Startseite umstellen.',
  ),
  component: AdminEditionsPage,
});
