import { createFileRoute } from '@tanstack/react-router';
import { ApplyPage } from '../features/apply/apply-page';
import { requireSignedIn } from '../lib/route-guards';

export const Route = createFileRoute('/apply')({
  beforeLoad: requireSignedIn,
  component: ApplyPage,
});
