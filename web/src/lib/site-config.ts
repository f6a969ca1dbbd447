import { parseSiteConfig, SITE_CONFIG_ELEMENT_ID, type SiteConfig } from '@schlosstreffen/shared';

let cached: SiteConfig | undefined;

/** The event facts the server wrote into index.html, else shared's default event (dev server, tests). */
export function getSiteConfig(): SiteConfig {
  cached ??= parseSiteConfig(
    typeof document === 'undefined' ? null : document.getElementById(SITE_CONFIG_ELEMENT_ID)?.textContent,
  );
  return cached;
}
