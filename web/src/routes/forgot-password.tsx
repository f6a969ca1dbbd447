import { createFileRoute } from '@tanstack/react-router';
import { ForgotPasswordPage } from '../features/account/forgot-password-page';
import { pageHead } from '../lib/page-head';

export const Route = createFileRoute('/forgot-password')({
  head: () =>
    pageHead(
      'Passwort vergessen – Schlosstreffen',
      'Fordere einen Link an, um das Passwort deines Schlosstreffen-Kontos zurückzusetzen.',
    ),
  component: ForgotPasswordPage,
});
