import { createFileRoute } from '@tanstack/react-router';
import { AdminCheckInPage } from '../../features/check-in/check-in-page';

export const Route = createFileRoute('/admin/check-in')({
  component: AdminCheckInPage,
});
