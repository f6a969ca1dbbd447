import { createFileRoute } from '@tanstack/react-router';
import { EmailChangeCancelPage } from '../features/account/email-change-cancel-page';
import { tokenSearch } from '../lib/link-token-search';

export const Route = createFileRoute('/email-aenderung-abbrechen')({
  validateSearch: tokenSearch,
  component: EmailChangeCancelRoute,
});

function EmailChangeCancelRoute() {
  return <EmailChangeCancelPage token={Route.useSearch().token} />;
}
