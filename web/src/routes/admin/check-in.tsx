import { createFileRoute } from '@tanstack/react-router';
import { AdminCheckInPage } from '../../features/check-in/check-in-page';
import { adminHead } from '../../features/admin/admin-access';
import { addOfflineUser, onSignOut } from '../../lib/current-user';

// The gate's data on this device: without network the screen opens for the staff member who loaded
// its list, and signing out deletes the list (both load the gate's code only when they run).
addOfflineUser(() =>
  import('../../features/check-in/offline-gate-user').then((gate) => gate.offlineGateUser()),
);
onSignOut(() => import('../../features/check-in/gate-store').then((gate) => gate.clearGate()));

export const Route = createFileRoute('/admin/check-in')({
  head: adminHead(
    'staff',
    'Check-in – Schlosstreffen',
    'Fahrzeuge und Besucher am Einlass einchecken: QR-Code der Einladung oder des Besuchertickets scannen oder Check-in-Code bzw. Startnummer eingeben.',
  ),
  component: AdminCheckInPage,
});
