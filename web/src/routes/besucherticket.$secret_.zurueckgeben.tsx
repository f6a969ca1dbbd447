import { createFileRoute } from '@tanstack/react-router';
import { VisitorTicketReturnPage } from '../features/visitors/visitor-ticket-page';
import { pageHead } from '../lib/page-head';

export const Route = createFileRoute('/besucherticket/$secret_/zurueckgeben')({
  head: () => {
    const head = pageHead(
      'Besucherticket zurückgeben – Schlosstreffen',
      'Gib dein Besucherticket für das Schlosstreffen zurück.',
    );
    return { ...head, meta: [...head.meta, { name: 'robots', content: 'noindex, nofollow' }] };
  },
  component: ReturnRoute,
});

function ReturnRoute() {
  return <VisitorTicketReturnPage secret={Route.useParams().secret} />;
}
