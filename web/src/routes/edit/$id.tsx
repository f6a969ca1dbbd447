import { createFileRoute } from '@tanstack/react-router';
import { RoutePending } from '../../components/route-pending';
import { EditPage, EditPageError } from '../../features/edit/edit-page';
import { loadVehicleForEdit } from '../../features/edit/edit-loader';
import { VEHICLE_MESSAGES } from '@schlosstreffen/shared';
import { pageHead } from '../../lib/page-head';
import { requireSignedIn } from '../../lib/route-guards';

export const Route = createFileRoute('/edit/$id')({
  beforeLoad: requireSignedIn,
  loader: ({ context, params }) => loadVehicleForEdit(context.queryClient, params.id),
  // 'Lädt...' while the sign-in check and the vehicle load (after a short delay, so cached data shows no flash).
  pendingComponent: RoutePending,
  pendingMs: 200,
  pendingMinMs: 300,
  // Failures other than a missing vehicle offer a retry.
  errorComponent: EditPageError,
  head: ({ match, loaderData }) => {
    if (match.status === 'error')
      return pageHead('Fehler – Schlosstreffen', 'Das Fahrzeug konnte nicht geladen werden.');
    if (loaderData && !loaderData.found)
      return pageHead(
        `${VEHICLE_MESSAGES.vehicleNotFound} – Schlosstreffen`,
        'Dieses Fahrzeug wurde nicht gefunden.',
      );
    return pageHead(
      'Fahrzeug bearbeiten – Schlosstreffen',
      'Technische Daten, Beschreibung und Bilder deines Fahrzeugs für das Schlosstreffen bearbeiten.',
    );
  },
  component: EditPage,
});
