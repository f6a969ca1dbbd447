import { useEffect } from 'react';

function setMetaDescription(description: string): void {
  let meta = document.head.querySelector<HTMLMetaElement>('meta[name="description"]');
  if (!meta) {
    meta = document.createElement('meta');
    meta.name = 'description';
    document.head.append(meta);
  }
  meta.content = description;
}

/** Sets the page title and meta description for search engines while the page is shown. */
export function useDocumentMeta(title: string, description: string): void {
  useEffect(() => {
    document.title = title;
    setMetaDescription(description);
  }, [title, description]);
}
