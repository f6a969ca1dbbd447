import { createFileRoute } from '@tanstack/react-router';
import { AdminCheckInPage } from '../../features/admin/check-in-page';
import { adminPageHead } from '../../features/admin/admin-access';

export const Route = createFileRoute('/admin/check-in')({
  head: ({ match }) =>
    adminPageHead(
      match.context.user.role,
      'staff',
      'Check-in – Schlosstreffen',
      'Fahrzeuge am Einlass einchecken: QR-Code der Einladung scannen oder Check-in-Code bzw. Startnummer eingeben.',
    ),
  component: AdminCheckInPage,
});
