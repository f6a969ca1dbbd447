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

/** What a shared link shows (Open Graph, Twitter): the page's title, a line and an image. */
export interface SharePreview {
  title: string;
  description: string;
  /** The page's path. */
  path: string;
  /** The image's path or URL (made absolute) and its size; none: the preview shows no image. */
  image?: { url: string; width: number; height: number; alt: string };
}

/**
 * `pageHead` with the tags a link preview reads (Instagram, WhatsApp, Facebook use Open Graph; X its
 * Twitter card), each URL absolute.
 */
export function shareHead(preview: SharePreview) {
  const head = pageHead(preview.title, preview.description, preview.path);
  const image = preview.image;
  const meta = [
    ...head.meta,
    { property: 'og:type', content: 'website' },
    { property: 'og:site_name', content: 'Schlosstreffen' },
    { property: 'og:locale', content: 'de_DE' },
    { property: 'og:title', content: preview.title },
    { property: 'og:description', content: preview.description },
    { property: 'og:url', content: canonicalUrl(preview.path) },
    ...(image
      ? [
          { property: 'og:image', content: canonicalUrl(image.url) },
          { property: 'og:image:width', content: String(image.width) },
          { property: 'og:image:height', content: String(image.height) },
          { property: 'og:image:alt', content: image.alt },
        ]
      : []),
    { name: 'twitter:card', content: image ? 'summary_large_image' : 'summary' },
    { name: 'twitter:title', content: preview.title },
    { name: 'twitter:description', content: preview.description },
    ...(image ? [{ name: 'twitter:image', content: canonicalUrl(image.url) }] : []),
  ];
  return { meta, links: head.links };
}
