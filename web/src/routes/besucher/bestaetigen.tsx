import { createFileRoute } from '@tanstack/react-router';
import { VisitorConfirmPage } from '../../features/visitors/visitor-link-pages';
import { tokenSearch } from '../../lib/link-token-search';
import { pageHead } from '../../lib/page-head';

export const Route = createFileRoute('/besucher/bestaetigen')({
  validateSearch: tokenSearch,
  head: () =>
    pageHead(
      'Vormerkung bestätigen – Schlosstreffen',
      'Bestätige deine Vormerkung als Besucher des Schlosstreffens.',
    ),
  component: ConfirmRoute,
});

function ConfirmRoute() {
  return <VisitorConfirmPage token={Route.useSearch().token} />;
}
