import { createFileRoute } from '@tanstack/react-router';
import { ImprintPage } from '../features/legal/imprint-page';
import { pageHead } from '../lib/page-head';
import { siteEventFacts } from '../lib/event-format';
import { getSiteConfig } from '../lib/site-config';

export const Route = createFileRoute('/impressum')({
  head: () => {
    const facts = siteEventFacts(getSiteConfig());
    return pageHead(
      `Impressum – ${facts.name}`,
      `Anbieter und Kontakt der Website zum ${facts.name}.`,
      '/impressum',
    );
  },
  component: ImprintPage,
});
