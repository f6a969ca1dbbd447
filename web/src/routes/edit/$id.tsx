import { createFileRoute } from '@tanstack/react-router';
import { EditPage } from '../../features/edit/edit-page';
import { vehicleQueryOptions } from '../../features/vehicles/vehicle-queries';
import { requireSignedIn } from '../../lib/route-guards';

export const Route = createFileRoute('/edit/$id')({
  beforeLoad: requireSignedIn,
  loader: ({ context, params }) => {
    void context.queryClient.ensureQueryData(vehicleQueryOptions(params.id)).catch(() => undefined);
  },
  component: EditPage,
});
