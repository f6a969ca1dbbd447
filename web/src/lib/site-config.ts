import { parseSiteConfig, SITE_CONFIG_ELEMENT_ID, type SiteConfig } from '@schlosstreffen/shared';

let cached: SiteConfig | undefined;

/**
 * The event facts the server wrote into index.html, else shared's default event (dev server, tests).
 * On the server, the configuration the renderer was given (the same for every request of a process).
 */
export function getSiteConfig(): SiteConfig {
  cached ??= parseSiteConfig(
    typeof document === 'undefined' ? null : document.getElementById(SITE_CONFIG_ELEMENT_ID)?.textContent,
  );
  return cached;
}

/** Server rendering: the configuration pages read instead of the document's data block. */
export function setServerSiteConfig(config: SiteConfig): void {
  cached = config;
}
