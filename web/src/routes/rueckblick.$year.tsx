import { createFileRoute, notFound } from '@tanstack/react-router';
import { LookBackRoute } from '../features/look-back/look-back-page';
import { lookBackQueryOptions } from '../features/look-back/look-back-queries';
import { pageHead } from '../lib/page-head';

export const Route = createFileRoute('/rueckblick/$year')({
  // The server renders the page with the look back it read for it (none: not found); the browser
  // asks for it when it comes here by a link.
  loader: ({ context, params }) => {
    if (!/^\d{4}$/.test(params.year)) throw notFound();
    const options = lookBackQueryOptions(Number(params.year));
    if (typeof window === 'undefined') {
      if (!context.queryClient.getQueryData(options.queryKey)) throw notFound();
      return;
    }
    void context.queryClient.prefetchQuery(options);
  },
  head: ({ params }) =>
    pageHead(
      `Rückblick ${params.year} – Schlosstreffen`,
      `Das Schlosstreffen ${params.year}: die Fahrzeuge, die dabei waren.`,
      `/rueckblick/${params.year}`,
    ),
  component: LookBackRoute,
});
