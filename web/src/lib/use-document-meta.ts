import { createContext, useContext, useEffect } from 'react';
import { announcePageLive } from './page-live';
import { getSiteConfig } from './site-config';

/** What a page asks for in the document head, as the server renders it into the HTML. */
export interface DocumentMeta {
  title?: string;
  description?: string;
  /** Absolute URL. */
  canonical?: string;
}

/** Given only while rendering on the server: the page's meta is collected during render, no effects run. */
export const DocumentMetaContext = createContext<DocumentMeta | null>(null);

const canonicalUrl = (path: string) =>
  new URL(path, getSiteConfig().publicUrl || window.location.origin).href;

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
  const collected = useContext(DocumentMetaContext);
  if (collected) {
    collected.title = title;
    collected.description = description;
    collected.canonical = canonicalPath ? new URL(canonicalPath, getSiteConfig().publicUrl).href : undefined;
  }
  useEffect(() => {
    // Every page sets its meta once its content is committed: a server-rendered page is live.
    announcePageLive();
  }, []);
  useEffect(() => {
    document.title = title;
    setMeta('description', description);
    setCanonical(canonicalPath ? canonicalUrl(canonicalPath) : undefined);
    return () => setCanonical(undefined);
  }, [title, description, canonicalPath]);
}
