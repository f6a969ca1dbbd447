import { createFileRoute } from '@tanstack/react-router';
import { VisitorUnsubscribePage } from '../../features/visitors/visitor-link-pages';
import { tokenSearch } from '../../lib/link-token-search';

export const Route = createFileRoute('/besucher/abmelden')({
  validateSearch: tokenSearch,
  component: UnsubscribeRoute,
});

function UnsubscribeRoute() {
  return <VisitorUnsubscribePage token={Route.useSearch().token} />;
}
