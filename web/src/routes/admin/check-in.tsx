import { createFileRoute } from '@tanstack/react-router';
import { AdminCheckInPage } from '../../features/admin/check-in-page';

export const Route = createFileRoute('/admin/check-in')({
  component: AdminCheckInPage,
});
