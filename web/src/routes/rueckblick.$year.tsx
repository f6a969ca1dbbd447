import { createFileRoute } from '@tanstack/react-router';
import { LookBackRoute } from '../features/look-back/look-back-page';
import { pageHead } from '../lib/page-head';

export const Route = createFileRoute('/rueckblick/$year')({
  head: ({ params }) =>
    pageHead(
      `Rückblick ${params.year} – Schlosstreffen`,
      `Das Schlosstreffen ${params.year}: die Fahrzeuge, die dabei waren.`,
      `/rueckblick/${params.year}`,
    ),
  component: LookBackRoute,
});
