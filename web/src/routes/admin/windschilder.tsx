import { createFileRoute } from '@tanstack/react-router';
import { AdminSignsPage } from '../../features/admin/event-day/signs-page';
import { signSetsQueryOptions } from '../../features/admin/event-day/signs-queries';
import { adminHead, startQueryFor } from '../../features/admin/admin-access';

// Admins only: reviewers see 'Zugriff verweigert' and never call the API.
export const Route = createFileRoute('/admin/windschilder')({
  loader: startQueryFor('admin', signSetsQueryOptions),
  head: adminHead(
    'admin',
    'Windschilder – Adminbereich – Schlosstreffen',
    'Windschilder mit Startnummer, Parkzone und QR-Code für alle bestätigten Fahrzeuge drucken.',
  ),
  component: AdminSignsPage,
});
