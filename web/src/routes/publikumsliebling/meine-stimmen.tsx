import { createFileRoute } from '@tanstack/react-router';
import { AwardMyVotesPage } from '../../features/award/award-link-pages';
import { tokenSearch } from '../../lib/link-token-search';
import { pageHead } from '../../lib/page-head';

export const Route = createFileRoute('/publikumsliebling/meine-stimmen')({
  validateSearch: tokenSearch,
  head: () =>
    pageHead(
      'Meine Stimmen – Publikumsliebling – Schlosstreffen',
      'Deine Stimmen zum Publikumsliebling herunterladen oder löschen.',
    ),
  component: MyVotesRoute,
});

function MyVotesRoute() {
  return <AwardMyVotesPage token={Route.useSearch().token} />;
}
