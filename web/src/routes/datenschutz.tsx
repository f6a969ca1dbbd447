import { createFileRoute } from '@tanstack/react-router';
import { PrivacyPage } from '../features/legal/privacy-page';
import { pageHead } from '../lib/page-head';
import { siteEventFacts } from '../lib/event-format';
import { getSiteConfig } from '../lib/site-config';

export const Route = createFileRoute('/datenschutz')({
  head: () => {
    const facts = siteEventFacts(getSiteConfig());
    return pageHead(
      `Datenschutzerklärung – ${facts.name}`,
      `Welche Daten das ${facts.name} verarbeitet, wofür und wie lange, und welche Rechte du hast.`,
      '/datenschutz',
    );
  },
  component: PrivacyPage,
});
