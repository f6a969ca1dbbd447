import { createFileRoute } from '@tanstack/react-router';
import { LandingPage } from '../features/landing/landing-page';
import { publicVehiclesQueryOptions } from '../features/vehicles/vehicle-queries';
import { pageHead } from '../lib/page-head';
import { siteEventFacts } from '../lib/event-format';
import { getSiteConfig } from '../lib/site-config';

export const Route = createFileRoute('/')({
  // Started, not awaited: the page is usable while the confirmed vehicles load. The server renders
  // the first screen without them (the carousel is further down), the browser asks for them.
  loader: ({ context }) => {
    if (typeof window !== 'undefined') void context.queryClient.prefetchQuery(publicVehiclesQueryOptions);
  },
  head: () => {
    const facts = siteEventFacts(getSiteConfig());
    return pageHead(
      `${facts.name} – Tuning-Treffen am Schloss`,
      `${facts.name}: das Tuning-Treffen an einem historischen Schloss in Sachsen am ${facts.shortDate}. Bewirb dich mit deinem getunten Fahrzeug oder merke dich als Besucher vor.`,
    );
  },
  component: LandingPage,
});
