import { createFileRoute, redirect } from '@tanstack/react-router';

// A reviewer's admin area opens on 'Meine Prüfungen', an admin's on the applications.
export const Route = createFileRoute('/admin/')({
  beforeLoad: ({ context }) => {
    throw redirect({
      to: context.user.role === 'reviewer' ? '/admin/pruefungen' : '/admin/dashboard',
      replace: true,
    });
  },
});
