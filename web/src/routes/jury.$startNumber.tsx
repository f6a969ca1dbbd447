import { createFileRoute, notFound } from '@tanstack/react-router';
import * as v from 'valibot';
import { JuryCarPage } from '../features/jury/jury-car-page';
import { pageHead } from '../lib/page-head';

const SearchSchema = v.object({ klasse: v.optional(v.string()) });

/** The start number of the address: up to five digits, else the page is not found. */
function startNumberOf(params: { startNumber: string }): number {
  if (!/^\d{1,5}$/.test(params.startNumber)) throw notFound();
  return Number(params.startNumber);
}

export const Route = createFileRoute('/jury/$startNumber')({
  // The class whose walking order 'Nächstes Auto' follows.
  validateSearch: (search) =>
    v.parse(SearchSchema, { klasse: typeof search.klasse === 'string' ? search.klasse : undefined }),
  loader: ({ params }) => {
    startNumberOf(params);
  },
  head: ({ params }) =>
    pageHead(
      `Startnummer ${params.startNumber} bewerten – Jury – Schlosstreffen`,
      'Die Bewertung eines Autos in Ihren Klassen.',
    ),
  component: JuryCarRoute,
});

function JuryCarRoute() {
  const params = Route.useParams();
  const { klasse } = Route.useSearch();
  return <JuryCarPage startNumber={Number(params.startNumber)} classId={klasse} />;
}
