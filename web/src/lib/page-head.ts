import { getSiteConfig } from './site-config';

/**
 * A page's title and meta description, with `canonicalPath` also a canonical link (absolute: on
 * PUBLIC_URL, else the current origin), as a route's `head()` returns them. The root route renders
 * them with `<HeadContent />` while the page is shown; the server renders them into the page's head.
 */
export function pageHead(title: string, description: string, canonicalPath?: string) {
  return {
    meta: [{ title }, { name: 'description', content: description }],
    links: canonicalPath ? [{ rel: 'canonical', href: canonicalUrl(canonicalPath) }] : [],
  };
}

function canonicalUrl(path: string): string {
  const base =
    getSiteConfig().publicUrl || (typeof window === 'undefined' ? undefined : window.location.origin);
  return new URL(path, base).href;
}
