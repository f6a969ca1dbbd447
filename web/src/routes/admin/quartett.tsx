import { createFileRoute } from '@tanstack/react-router';
import { AdminQuartettPage } from '../../features/admin/quartett-page';

export const Route = createFileRoute('/admin/quartett')({
  component: AdminQuartettPage,
});
