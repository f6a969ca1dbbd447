import { createFileRoute } from '@tanstack/react-router';
import { AdminArrivalsPage } from '../../features/check-in/arrivals-page';
import { adminHead } from '../../features/admin/admin-access';

export const Route = createFileRoute('/admin/einlass')({
  head: adminHead('staff', 'Einlass – Adminbereich – Schlosstreffen', 'Ankünfte am Einlass live verfolgen.'),
  component: AdminArrivalsPage,
});
