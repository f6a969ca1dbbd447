import { createFileRoute, redirect } from '@tanstack/react-router';
import { RegisterPage } from '../features/account/register-page';
import { currentUserQueryOptions } from '../lib/current-user';
import { pageHead } from '../lib/page-head';

export const Route = createFileRoute('/register')({
  // Already signed in: nothing to register, the dashboard is the next step.
  beforeLoad: async ({ context }) => {
    const user = await context.queryClient.ensureQueryData(currentUserQueryOptions);
    if (user) throw redirect({ to: '/dashboard', replace: true });
  },
  head: () =>
    pageHead(
      'Registrieren – Schlosstreffen',
      'Erstelle dein Konto für das Schlosstreffen und bewirb dich mit deinem getunten Fahrzeug.',
      '/register',
    ),
  component: RegisterPage,
});
