import { createFileRoute } from '@tanstack/react-router';
import { LandingPage } from '../features/landing/landing-page';
import { publicVehiclesQueryOptions } from '../features/vehicles/vehicle-queries';

export const Route = createFileRoute('/')({
  // Started, not awaited: the page is usable while the confirmed vehicles load.
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(publicVehiclesQueryOptions);
  },
  component: LandingPage,
});
