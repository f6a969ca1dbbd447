import { createFileRoute } from '@tanstack/react-router';
import * as v from 'valibot';
import { ConfirmInvitation } from '../features/invitation/confirm-invitation';
import { pageHead } from '../lib/page-head';

const SearchSchema = v.object({ token: v.optional(v.string()) });

export const Route = createFileRoute('/einladung')({
  validateSearch: (search) =>
    v.parse(SearchSchema, { token: typeof search.token === 'string' ? search.token : undefined }),
  head: () =>
    pageHead(
      'Einladung bestätigen – Schlosstreffen',
      'Bestätige deine Teilnahme mit deinem Fahrzeug am Schlosstreffen.',
    ),
  component: EinladungPage,
});

function EinladungPage() {
  const { token } = Route.useSearch();
  return <ConfirmInvitation token={token} />;
}
