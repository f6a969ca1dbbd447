import { createFileRoute } from '@tanstack/react-router';
import { LandingPage } from '../features/landing/landing-page';
import { publicVehiclesQueryOptions } from '../features/vehicles/vehicle-queries';

export const Route = createFileRoute('/')({
  // Started, not awaited: the page is usable while the confirmed vehicles load. The server renders
  // the first screen without them (the carousel is further down), the browser asks for them.
  loader: ({ context }) => {
    if (typeof window !== 'undefined') void context.queryClient.prefetchQuery(publicVehiclesQueryOptions);
  },
  component: LandingPage,
});
