import { createFileRoute } from '@tanstack/react-router';
import { VisitorNextEditionPage } from '../../features/visitors/visitor-link-pages';
import { tokenSearch } from '../../lib/link-token-search';
import { pageHead } from '../../lib/page-head';

export const Route = createFileRoute('/besucher/naechstes-treffen')({
  validateSearch: tokenSearch,
  head: () =>
    pageHead(
      'Über das nächste Treffen informieren – Schlosstreffen',
      'Willige ein, per E-Mail vom nächsten Schlosstreffen zu hören.',
    ),
  component: NextEditionRoute,
});

function NextEditionRoute() {
  return <VisitorNextEditionPage token={Route.useSearch().token} />;
}
