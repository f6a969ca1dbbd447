import { createFileRoute } from '@tanstack/react-router';
import * as v from 'valibot';
import { LoginPage } from '../features/account/login-page';

const SearchSchema = v.object({ redirect: v.optional(v.string()) });

export const Route = createFileRoute('/login')({
  validateSearch: (search) =>
    v.parse(SearchSchema, { redirect: typeof search.redirect === 'string' ? search.redirect : undefined }),
  component: LoginPage,
});
