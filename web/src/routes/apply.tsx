import { createFileRoute } from '@tanstack/react-router';
import { ApplyPage } from '../features/apply/apply-page';
import { RoutePending } from '../components/route-pending';
import { requireSignedIn } from '../lib/route-guards';
import { pageHead } from '../lib/page-head';
import { siteEventFacts } from '../lib/event-format';
import { getSiteConfig } from '../lib/site-config';

export const Route = createFileRoute('/apply')({
  beforeLoad: requireSignedIn,
  // 'Lädt...' while the sign-in check runs (after a short delay, so a cached answer shows no flash).
  pendingComponent: RoutePending,
  pendingMs: 200,
  pendingMinMs: 300,
  head: () => {
    const facts = siteEventFacts(getSiteConfig());
    return pageHead(
      `Fahrzeug anmelden – ${facts.name}`,
      `Bewirb dich mit deinem getunten Fahrzeug für das ${facts.name} am ${facts.shortDate}: technische Daten, Fotos und Einwilligungen in vier Schritten.`,
      '/apply',
    );
  },
  component: ApplyPage,
});
