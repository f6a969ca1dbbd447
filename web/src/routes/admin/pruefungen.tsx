import { createFileRoute } from '@tanstack/react-router';
import { adminHead, startQueryFor } from '../../features/admin/admin-access';
import { MyReviewsPage } from '../../features/admin/applications/my-reviews-page';
import { myReviewsQueryOptions } from '../../features/admin/applications/review-queries';

export const Route = createFileRoute('/admin/pruefungen')({
  loader: startQueryFor('staff', myReviewsQueryOptions),
  head: adminHead(
    'staff',
    'Meine Prüfungen – Adminbereich – Schlosstreffen',
    'Die Ihnen zugewiesenen Bewerbungen prüfen und bewerten.',
  ),
  component: MyReviewsPage,
});
