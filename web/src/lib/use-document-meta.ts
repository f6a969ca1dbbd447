import { useEffect } from 'react';
import { getSiteConfig } from './site-config';

function setMeta(name: string, content: string): void {
  let meta = document.head.querySelector<HTMLMetaElement>(`meta[name="${name}"]`);
  if (!meta) {
    meta = document.createElement('meta');
    meta.name = name;
    document.head.append(meta);
  }
  meta.content = content;
}

function setCanonical(href: string | undefined): void {
  const existing = document.head.querySelector<HTMLLinkElement>('link[rel="canonical"]');
  if (!href) {
    existing?.remove();
    return;
  }
  const link = existing ?? document.createElement('link');
  link.rel = 'canonical';
  link.href = href;
  if (!existing) document.head.append(link);
}

/**
 * Sets the page title and meta description for search engines while the page is shown; with
 * `canonicalPath` also a canonical link (absolute: on PUBLIC_URL, else the current origin).
 */
export function useDocumentMeta(title: string, description: string, canonicalPath?: string): void {
  useEffect(() => {
    document.title = title;
    setMeta('description', description);
    setCanonical(
      canonicalPath
        ? new URL(canonicalPath, getSiteConfig().publicUrl || window.location.origin).href
        : undefined,
    );
    return () => setCanonical(undefined);
  }, [title, description, canonicalPath]);
}
