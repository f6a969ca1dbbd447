import { createFileRoute } from '@tanstack/react-router';
import { JuryInvitePage } from '../features/jury/jury-invite-page';
import { tokenSearch } from '../lib/link-token-search';
import { pageHead } from '../lib/page-head';
import { requireSignedIn } from '../lib/route-guards';

export const Route = createFileRoute('/jury_/einladung')({
  // Accepted by the account it is signed in with: signed out, the login comes first and leads back.
  beforeLoad: requireSignedIn,
  validateSearch: tokenSearch,
  head: () =>
    pageHead(
      'Einladung in die Jury – Schlosstreffen',
      'Nehmen Sie die Einladung in die Jury des Schlosstreffens an.',
    ),
  component: JuryInviteRoute,
});

function JuryInviteRoute() {
  const { token } = Route.useSearch();
  return <JuryInvitePage token={token} />;
}
