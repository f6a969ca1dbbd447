import { createFileRoute } from '@tanstack/react-router';
import { DeclineInvitation } from '../features/invitation/decline-invitation';
import { tokenSearch } from '../lib/link-token-search';
import { pageHead } from '../lib/page-head';

export const Route = createFileRoute('/einladung_/absagen')({
  validateSearch: tokenSearch,
  head: () =>
    pageHead(
      'Teilnahme absagen – Schlosstreffen',
      'Sage deine Teilnahme am Schlosstreffen ab und gib deinen Platz für die Warteliste frei.',
    ),
  component: DeclinePage,
});

function DeclinePage() {
  const { token } = Route.useSearch();
  return <DeclineInvitation token={token} />;
}
