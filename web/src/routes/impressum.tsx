import { createFileRoute } from '@tanstack/react-router';
import { ImprintPage } from '../features/legal/imprint-page';

export const Route = createFileRoute('/impressum')({ component: ImprintPage });
