import { createFileRoute } from '@tanstack/react-router';
import { JuryClassPage } from '../features/jury/jury-class-page';
import { pageHead } from '../lib/page-head';

export const Route = createFileRoute('/jury/klasse/$classId')({
  head: () =>
    pageHead(
      'Klasse abschließen – Jury – Schlosstreffen',
      'Fortschritt einer Klasse, fehlende Bewertungen und ihr Abschluss durch die Jury-Leitung.',
    ),
  component: JuryClassRoute,
});

function JuryClassRoute() {
  const { classId } = Route.useParams();
  return <JuryClassPage classId={classId} />;
}
