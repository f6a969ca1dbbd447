import { createFileRoute } from '@tanstack/react-router';
import { AdminBesucherPage } from '../../features/admin/besucher-page';

export const Route = createFileRoute('/admin/besucher')({
  component: AdminBesucherPage,
});
