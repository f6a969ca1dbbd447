import { createFileRoute, notFound } from '@tanstack/react-router';
import { LookBackPage } from '../features/look-back/look-back-page';
import { pageHead } from '../lib/page-head';

const yearOf = (raw: string): number => {
  if (!/^\d{4}$/.test(raw)) throw notFound();
  return Number(raw);
};

export const Route = createFileRoute('/rueckblick/$year')({
  head: ({ params }) =>
    pageHead(
      `Rückblick ${params.year} – Schlosstreffen`,
      `Das Schlosstreffen ${params.year}: die Fahrzeuge, die dabei waren.`,
      `/rueckblick/${params.year}`,
    ),
  component: function LookBackRoute() {
    const { year } = Route.useParams();
    return <LookBackPage year={yearOf(year)} />;
  },
});
