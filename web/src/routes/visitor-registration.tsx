import { createFileRoute } from '@tanstack/react-router';
import { VisitorRegistrationPage } from '../features/visitors/visitor-registration-page';

export const Route = createFileRoute('/visitor-registration')({ component: VisitorRegistrationPage });
