import { createFileRoute } from '@tanstack/react-router';
import { AdminArrivalsPage } from '../../features/check-in/arrivals-page';

export const Route = createFileRoute('/admin/einlass')({
  component: AdminArrivalsPage,
});
