import * as v from 'valibot';
import { EVENT_END_INSTANT, EVENT_START_INSTANT } from './constants.js';

/**
 * The event facts the browser shows (countdown, event info). The server writes them into the
 * served index.html as `<script type="application/json" id="site-config">`, so the next edition
 * needs no new build; without that block (Vite dev server, tests) the spec's event applies.
 */
export const SiteConfigSchema = v.object({
  eventName: v.string(),
  /** Instants with offset, e.g. '2026-06-20T10:00:00+02:00' or UTC. */
  eventStart: v.pipe(v.string(), v.isoTimestamp()),
  eventEnd: v.pipe(v.string(), v.isoTimestamp()),
  place: v.string(),
  /** 'YYYY-MM-DD' */
  applicationDeadline: v.pipe(v.string(), v.isoDate()),
  publicUrl: v.string(),
});
export type SiteConfig = v.InferOutput<typeof SiteConfigSchema>;

export const DEFAULT_SITE_CONFIG: SiteConfig = {
  eventName: 'Schlosstreffen',
  eventStart: EVENT_START_INSTANT,
  eventEnd: EVENT_END_INSTANT,
  place: 'Schlosspark, Sachsen',
  applicationDeadline: '2026-03-31',
  publicUrl: '',
};

export const SITE_CONFIG_ELEMENT_ID = 'site-config';

/** The JSON data block for index.html; `<` is escaped so no value can close the script element. */
export function siteConfigScript(config: SiteConfig): string {
  const json = JSON.stringify(config).replace(/</g, '\\u003c');
  return `<script type="application/json" id="${SITE_CONFIG_ELEMENT_ID}">${json}</script>`;
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
