import { createFileRoute } from '@tanstack/react-router';
import { AdminArrivalsPage } from '../../features/admin/arrivals-page';

export const Route = createFileRoute('/admin/einlass')({
  component: AdminArrivalsPage,
});
