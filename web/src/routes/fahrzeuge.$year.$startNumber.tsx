import { carPagePath, vehicleSubline } from '@schlosstreffen/shared';
import type { CarPage } from '@schlosstreffen/shared/api';
import { createFileRoute, notFound } from '@tanstack/react-router';
import { carPageQueryOptions, carPageTitle } from '../features/car-page/car-page-queries';
import { CarPageView } from '../features/car-page/car-page';
import { shareHead } from '../lib/page-head';

/** The year and start number of the address: four digits and up to four, else the page is not found. */
function numbersOf(params: { year: string; startNumber: string }) {
  if (!/^\d{4}$/.test(params.year) || !/^\d{1,4}$/.test(params.startNumber)) throw notFound();
  return { year: Number(params.year), startNumber: Number(params.startNumber) };
}

/** The line under the title in a link's preview. */
function descriptionOf(page: CarPage): string {
  const car = page.vehicle;
  const details = car ? [vehicleSubline(car), car.descriptionShort?.trim()].filter(Boolean).join(' – ') : '';
  return `Startnummer ${page.startNumber} beim ${page.edition.name}${details ? `: ${details}` : '.'}`;
}

export const Route = createFileRoute('/fahrzeuge/$year/$startNumber')({
  // The server renders the page with the car it read for it (none: not found), so a shared link's
  // preview shows the car; the browser asks for it when it comes here by a link.
  loader: async ({ context, params }) => {
    const { year, startNumber } = numbersOf(params);
    const options = carPageQueryOptions(year, startNumber);
    if (typeof window === 'undefined') {
      const page = context.queryClient.getQueryData(options.queryKey);
      if (!page) throw notFound();
      return page;
    }
    return (
      context.queryClient.getQueryData(options.queryKey) ??
      (await context.queryClient.fetchQuery(options).catch(() => undefined))
    );
  },
  head: ({ params, loaderData }) => {
    const path = carPagePath(Number(params.year), Number(params.startNumber));
    if (!loaderData)
      return shareHead({
        title: 'Fahrzeug – Schlosstreffen',
        description: 'Ein Fahrzeug beim Schlosstreffen.',
        path,
      });
    const title = `${carPageTitle(loaderData)} · Nr. ${loaderData.startNumber} – ${loaderData.edition.name}`;
    const image = loaderData.shareImageUrl
      ? { url: loaderData.shareImageUrl, width: 1200, height: 630, alt: carPageTitle(loaderData) }
      : undefined;
    return shareHead({ title, description: descriptionOf(loaderData), path, image });
  },
  component: CarPageRoute,
});

function CarPageRoute() {
  const { year, startNumber } = numbersOf(Route.useParams());
  return <CarPageView year={year} startNumber={startNumber} />;
}
