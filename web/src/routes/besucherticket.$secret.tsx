import { createFileRoute } from '@tanstack/react-router';
import { VisitorTicketPage } from '../features/visitors/visitor-ticket-page';
import { pageHead } from '../lib/page-head';

export const Route = createFileRoute('/besucherticket/$secret')({
  // Reachable only with the ticket mail's secret link: kept out of search engines.
  head: () => {
    const head = pageHead('Besucherticket – Schlosstreffen', 'Dein Besucherticket für das Schlosstreffen.');
    return { ...head, meta: [...head.meta, { name: 'robots', content: 'noindex, nofollow' }] };
  },
  component: TicketRoute,
});

function TicketRoute() {
  return <VisitorTicketPage secret={Route.useParams().secret} />;
}
