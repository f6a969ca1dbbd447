import * as v from 'valibot';
import { EVENT_END_INSTANT, EVENT_START_INSTANT } from './constants.js';
import { DEFAULT_RETENTION, RETENTION_DEFAULT_DAYS, type RetentionRule } from './retention-periods.js';
import { EDITION_PHASES, editionPhaseAt, type EditionPhase } from './editions.js';

/** The operator outside production when none is configured: clearly a placeholder. */
export const DEFAULT_OPERATOR = {
  name: 'Schlosstreffen (Betreiberangaben nicht konfiguriert)',
  address: 'Musterstraße 1\n01067 Dresden',
  email: 'kontakt@schlosstreffen.example',
  phone: null,
  privacyContact: 'datenschutz@schlosstreffen.example',
};

/**
 * The event facts the browser shows (countdown, event info), the operator and the retention periods. The server writes them into the
 * served index.html as `<script type="application/json" id="site-config">`, so the next edition
 * needs no new build; without that block (Vite dev server, tests) the spec's event applies.
 */
const SiteConfigSchema = v.object({
  eventName: v.string(),
  /** Instants with offset, e.g. '2026-06-20T10:00:00+02:00' or UTC. */
  eventStart: v.pipe(v.string(), v.isoTimestamp()),
  eventEnd: v.pipe(v.string(), v.isoTimestamp()),
  place: v.string(),
  /** 'YYYY-MM-DD' */
  applicationDeadline: v.pipe(v.string(), v.isoDate()),
  /** When the current edition's applications open: null not yet; absent, open from the start. */
  applicationsOpenAt: v.optional(v.nullable(v.pipe(v.string(), v.isoTimestamp()))),
  /**
   * The current edition's phase when the server wrote the page (`editionPhaseAt`); a page that stays
   * open follows the clock with `sitePhaseAt`.
   */
  phase: v.optional(v.picklist(EDITION_PHASES)),
  /**
   * The app's clock when the server wrote the page: the browser's clock runs on from it (phases,
   * countdown), so the page shows the app's moment whatever the device's clock says, and a
   * server-rendered page's first render in the browser is the server's.
   */
  now: v.optional(v.pipe(v.string(), v.isoTimestamp())),
  /** The edition before the current one, whose 'Rückblick' the landing page links to. */
  lookBackYear: v.optional(v.nullable(v.number())),
  /**
   * The current edition's public texts ('Texte'), the formatted parts as HTML of `renderPublicTexts`
   * (escaped; injected as they are); null or absent: the default text.
   */
  texts: v.optional(
    v.object({
      introduction: v.nullable(v.string()),
      eventDetails: v.nullable(v.string()),
      faq: v.nullable(v.array(v.object({ question: v.string(), answer: v.string() }))),
    }),
  ),
  publicUrl: v.string(),
  /** Who runs the site: Impressum and privacy notice. */
  operator: v.object({
    name: v.string(),
    /** Postal address, lines separated by newlines. */
    address: v.string(),
    email: v.string(),
    phone: v.nullable(v.string()),
    /** The data protection contact (name and address or email). */
    privacyContact: v.string(),
  }),
  /** Retention periods in days, as the privacy notice states them. */
  retention: v.object(
    Object.fromEntries(Object.keys(RETENTION_DEFAULT_DAYS).map((rule) => [rule, v.number()])) as Record<
      RetentionRule,
      v.NumberSchema<undefined>
    >,
  ),
});
export type SiteConfig = v.InferOutput<typeof SiteConfigSchema>;

export const DEFAULT_SITE_CONFIG: SiteConfig = {
  eventName: 'Schlosstreffen',
  eventStart: EVENT_START_INSTANT,
  eventEnd: EVENT_END_INSTANT,
  place: 'Schlosspark, Sachsen',
  applicationDeadline: '2026-03-31',
  publicUrl: '',
  operator: DEFAULT_OPERATOR,
  retention: DEFAULT_RETENTION,
};

/** The current edition's phase at `at` from the site's event facts (the current edition is never superseded). */
export function sitePhaseAt(config: SiteConfig, at: Date): EditionPhase {
  const opensAt = config.applicationsOpenAt;
  return editionPhaseAt(
    {
      applicationsOpenAt: opensAt === undefined || opensAt === null ? opensAt : new Date(opensAt),
      applicationDeadline: config.applicationDeadline,
      startsAt: new Date(config.eventStart),
      endsAt: new Date(config.eventEnd),
      superseded: false,
    },
    at,
  );
}

export const SITE_CONFIG_ELEMENT_ID = 'site-config';

/**
 * The signed-in user (or null) as GET /api/auth/user answers, written by the server into a page it
 * does not render itself, so the first load asks for nothing that could fail.
 */
export const CURRENT_USER_ELEMENT_ID = 'current-user';

/** A JSON data block: never executed, so the CSP stays strict; '<' escaped so it cannot end the element. */
export function jsonDataScript(id: string, value: unknown): string {
  return `<script type="application/json" id="${id}">${JSON.stringify(value).replace(/</g, '\\u003c')}</script>`;
}

/** The JSON data block for index.html; `<` is escaped so no value can close the script element. */
export function siteConfigScript(config: SiteConfig): string {
  return jsonDataScript(SITE_CONFIG_ELEMENT_ID, config);
}

/** Reads the block written by {@link siteConfigScript}; anything missing or malformed gives the defaults. */
export function parseSiteConfig(text: string | null | undefined): SiteConfig {
  if (!text) return DEFAULT_SITE_CONFIG;
  try {
    const result = v.safeParse(SiteConfigSchema, JSON.parse(text));
    return result.success ? result.output : DEFAULT_SITE_CONFIG;
  } catch {
    return DEFAULT_SITE_CONFIG;
  }
}
