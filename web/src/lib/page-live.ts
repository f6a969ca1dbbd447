/**
 * A server-rendered page says when its content is live (its effects ran, so every part of it has
 * its handlers): the entry hands over what the visitor did before only then.
 */
const PAGE_LIVE_EVENT = 'schlosstreffen:page-live';

export function announcePageLive(): void {
  window.dispatchEvent(new Event(PAGE_LIVE_EVENT));
}

export function whenPageLive(): Promise<void> {
  return new Promise((resolve) => window.addEventListener(PAGE_LIVE_EVENT, () => resolve(), { once: true }));
}
