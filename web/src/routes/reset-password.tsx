import { createFileRoute } from '@tanstack/react-router';
import * as v from 'valibot';
import { ResetPasswordPage } from '../features/account/reset-password-page';
import { checkResetToken } from '../features/auth/reset-token-query';
import { pageHead } from '../lib/page-head';

const SearchSchema = v.object({ token: v.optional(v.string()) });

export const Route = createFileRoute('/reset-password')({
  validateSearch: (search) =>
    v.parse(SearchSchema, { token: typeof search.token === 'string' ? search.token : undefined }),
  loaderDeps: ({ search }) => ({ token: search.token }),
  loader: ({ context, deps, preload }) =>
    checkResetToken(context.queryClient, deps.token, { announce: !preload }),
  head: () =>
    pageHead(
      'Neues Passwort setzen – Schlosstreffen',
      'Lege ein neues Passwort für dein Schlosstreffen-Konto fest.',
    ),
  component: ResetPasswordPage,
});
