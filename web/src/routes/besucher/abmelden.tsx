import { createFileRoute } from '@tanstack/react-router';
import { VisitorUnsubscribePage } from '../../features/visitors/visitor-link-pages';
import { tokenSearch } from '../../lib/link-token-search';
import { pageHead } from '../../lib/page-head';

export const Route = createFileRoute('/besucher/abmelden')({
  validateSearch: tokenSearch,
  head: () =>
    pageHead(
      'Von Event-Updates abmelden – Schlosstreffen',
      'Melde dich von den Event-Updates des Schlosstreffens ab.',
    ),
  component: UnsubscribeRoute,
});

function UnsubscribeRoute() {
  return <VisitorUnsubscribePage token={Route.useSearch().token} />;
}
