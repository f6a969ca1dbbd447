import { createFileRoute } from '@tanstack/react-router';
import { EmailChangeCancelPage } from '../features/account/email-change-cancel-page';
import { tokenSearch } from '../lib/link-token-search';
import { pageHead } from '../lib/page-head';

export const Route = createFileRoute('/email-aenderung-abbrechen')({
  validateSearch: tokenSearch,
  head: () =>
    pageHead(
      'E-Mail-Änderung abbrechen – Schlosstreffen',
      'Brich eine Änderung der E-Mail-Adresse deines Schlosstreffen-Kontos ab.',
    ),
  component: EmailChangeCancelRoute,
});

function EmailChangeCancelRoute() {
  return <EmailChangeCancelPage token={Route.useSearch().token} />;
}
