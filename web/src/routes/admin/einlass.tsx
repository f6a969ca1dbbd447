import { createFileRoute } from '@tanstack/react-router';
import { AdminArrivalsPage } from '../../features/check-in/arrivals-page';
import { adminPageHead } from '../../features/admin/admin-access';

export const Route = createFileRoute('/admin/einlass')({
  head: ({ match }) =>
    adminPageHead(
      match.context.user.role,
      'staff',
      'Einlass – Adminbereich – Schlosstreffen',
      'Ankünfte am Einlass live verfolgen.',
    ),
  component: AdminArrivalsPage,
});
