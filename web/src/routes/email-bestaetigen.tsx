import { createFileRoute } from '@tanstack/react-router';
import { EmailConfirmPage } from '../features/account/email-confirm-page';
import { tokenSearch } from '../lib/link-token-search';
import { pageHead } from '../lib/page-head';

export const Route = createFileRoute('/email-bestaetigen')({
  validateSearch: tokenSearch,
  head: () =>
    pageHead(
      'E-Mail-Adresse bestätigen – Schlosstreffen',
      'Bestätige die E-Mail-Adresse deines Schlosstreffen-Kontos.',
    ),
  component: EmailConfirmRoute,
});

function EmailConfirmRoute() {
  return <EmailConfirmPage token={Route.useSearch().token} />;
}
