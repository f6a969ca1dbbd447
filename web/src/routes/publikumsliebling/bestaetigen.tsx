import { createFileRoute } from '@tanstack/react-router';
import { AwardConfirmPage } from '../../features/award/award-link-pages';
import { tokenSearch } from '../../lib/link-token-search';
import { pageHead } from '../../lib/page-head';

export const Route = createFileRoute('/publikumsliebling/bestaetigen')({
  validateSearch: tokenSearch,
  head: () =>
    pageHead(
      'Stimme bestätigen – Publikumsliebling – Schlosstreffen',
      'Bestätige deine E-Mail-Adresse, damit deine Stimme für den Publikumsliebling zählt.',
    ),
  component: ConfirmRoute,
});

function ConfirmRoute() {
  return <AwardConfirmPage token={Route.useSearch().token} />;
}
