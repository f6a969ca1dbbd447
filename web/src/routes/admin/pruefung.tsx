import { createFileRoute } from '@tanstack/react-router';
import { adminHead, startQueryFor } from '../../features/admin/admin-access';
import { reviewSettingsQueryOptions } from '../../features/admin/applications/review-queries';
import { ReviewSettingsPage } from '../../features/admin/management/review-settings-page';

// Admins only: reviewers see 'Zugriff verweigert' and never call the API.
export const Route = createFileRoute('/admin/pruefung')({
  loader: startQueryFor('admin', reviewSettingsQueryOptions),
  head: adminHead(
    'admin',
    'Prüfung – Adminbereich – Schlosstreffen',
    'Kategorien, Gewichtung und Prüfende pro Bewerbung einstellen; die Auslastung der Prüfenden sehen.',
  ),
  component: ReviewSettingsPage,
});
