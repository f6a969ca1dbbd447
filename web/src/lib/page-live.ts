/**
 * A server-rendered page says when its content is live (its effects ran, so every part of it has
 * its handlers): the entry hands over what the visitor did before only then. Each page the server
 * renders calls `useEffect(announcePageLive, [])`. (No React here: the landing page's entry imports
 * this module.)
 */
const PAGE_LIVE_EVENT = 'schlosstreffen:page-live';

export function announcePageLive(): void {
  window.dispatchEvent(new Event(PAGE_LIVE_EVENT));
}

export function whenPageLive(): Promise<void> {
  return new Promise((resolve) => window.addEventListener(PAGE_LIVE_EVENT, () => resolve(), { once: true }));
}
