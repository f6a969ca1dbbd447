import { createFileRoute, redirect } from '@tanstack/react-router';
import * as v from 'valibot';
import { LoginPage } from '../features/account/login-page';
import { currentUserQueryOptions } from '../lib/current-user';
import { safeRedirectTarget } from '../lib/route-guards';
import { pageHead } from '../lib/page-head';

const SearchSchema = v.object({ redirect: v.optional(v.string()) });

export const Route = createFileRoute('/login')({
  validateSearch: (search) =>
    v.parse(SearchSchema, { redirect: typeof search.redirect === 'string' ? search.redirect : undefined }),
  // Already signed in: straight on to where the login was meant to lead.
  beforeLoad: async ({ context, search }) => {
    const user = await context.queryClient.ensureQueryData(currentUserQueryOptions);
    if (user) throw redirect({ href: safeRedirectTarget(search.redirect), replace: true });
  },
  head: () =>
    pageHead(
      'Anmelden – Schlosstreffen',
      'Melde dich an, um deine Fahrzeuge und Bewerbungen für das Schlosstreffen zu verwalten.',
      '/login',
    ),
  component: LoginPage,
});
