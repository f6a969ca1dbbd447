import { createFileRoute } from '@tanstack/react-router';
import { LandingPlaceholder } from '../features/landing/landing-placeholder';

export const Route = createFileRoute('/')({
  component: LandingPlaceholder,
});
