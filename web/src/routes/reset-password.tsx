import { createFileRoute } from '@tanstack/react-router';
import * as v from 'valibot';
import { ResetPasswordPage } from '../features/account/reset-password-page';

const SearchSchema = v.object({ token: v.optional(v.string()) });

export const Route = createFileRoute('/reset-password')({
  validateSearch: (search) =>
    v.parse(SearchSchema, { token: typeof search.token === 'string' ? search.token : undefined }),
  component: ResetPasswordPage,
});
