import { createFileRoute } from '@tanstack/react-router';
import { EmailConfirmPage } from '../features/account/email-confirm-page';
import { tokenSearch } from '../lib/link-token-search';

export const Route = createFileRoute('/email-bestaetigen')({
  validateSearch: tokenSearch,
  component: EmailConfirmRoute,
});

function EmailConfirmRoute() {
  return <EmailConfirmPage token={Route.useSearch().token} />;
}
