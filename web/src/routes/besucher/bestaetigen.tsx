import { createFileRoute } from '@tanstack/react-router';
import { VisitorConfirmPage } from '../../features/visitors/visitor-link-pages';
import { tokenSearch } from '../../lib/link-token-search';

export const Route = createFileRoute('/besucher/bestaetigen')({
  validateSearch: tokenSearch,
  component: ConfirmRoute,
});

function ConfirmRoute() {
  return <VisitorConfirmPage token={Route.useSearch().token} />;
}
