import { createFileRoute } from '@tanstack/react-router';
import { DeclineInvitation } from '../features/invitation/decline-invitation';
import { tokenSearch } from '../lib/link-token-search';

export const Route = createFileRoute('/einladung_/absagen')({
  validateSearch: tokenSearch,
  component: DeclinePage,
});

function DeclinePage() {
  const { token } = Route.useSearch();
  return <DeclineInvitation token={token} />;
}
