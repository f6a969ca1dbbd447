import { createFileRoute } from '@tanstack/react-router';
import * as v from 'valibot';
import { VisitorRegistrationPage } from '../features/visitors/visitor-registration-page';
import { pageHead } from '../lib/page-head';
import { siteEventFacts } from '../lib/event-format';
import { getSiteConfig } from '../lib/site-config';

/** Where the confirmation mail's links land (set by the API): confirmed, unsubscribed or a bad link. */
const SearchSchema = v.object({
  bestaetigt: v.optional(v.literal('1')),
  abgemeldet: v.optional(v.literal('1')),
  link: v.optional(v.literal('ungueltig')),
});

const pick = <T extends string>(value: unknown, expected: T): T | undefined =>
  String(value) === expected ? expected : undefined;

export const Route = createFileRoute('/visitor-registration')({
  validateSearch: (search) =>
    v.parse(SearchSchema, {
      bestaetigt: pick(search.bestaetigt, '1'),
      abgemeldet: pick(search.abgemeldet, '1'),
      link: pick(search.link, 'ungueltig'),
    }),
  head: () => {
    const facts = siteEventFacts(getSiteConfig());
    return pageHead(
      'Als Besucher vormerken – Schlosstreffen',
      `Merke dich unverbindlich als Besucher für das ${facts.name} am ${facts.shortDate} vor und erhalte Event-Updates.`,
      '/visitor-registration',
    );
  },
  component: VisitorRegistrationPage,
});
