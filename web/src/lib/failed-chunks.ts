/** Session storage: the failures a reload was done for (their messages name the chunk), each once per tab. */
export const RELOADED_FOR_KEY = 'schlosstreffen:reloaded-for:';

/** Vite's event for a dynamic import (a route's chunk, its styles) that failed to load. */
type PreloadError = Event & { payload?: unknown };

/**
 * A chunk that fails to load (a page of an earlier build asking for code no server keeps any more,
 * or a request lost) loads the page once anew, which brings the current build. A chunk that fails
 * again after its reload shows its error as before, so a page never reloads in a loop; neither
 * while the browser is offline, where a reload cannot help, nor where session storage cannot record
 * the reload. Returns the removal of the listener.
 */
export function reloadOnceForFailedChunks(
  target: Window = window,
  reload: () => void = () => target.location.reload(),
): () => void {
  const onFailure = (event: PreloadError) => {
    if (!target.navigator.onLine) return;
    const key = `${RELOADED_FOR_KEY}${event.payload instanceof Error ? event.payload.message : String(event.payload)}`;
    try {
      if (target.sessionStorage.getItem(key) !== null) return;
      target.sessionStorage.setItem(key, '1');
    } catch {
      return;
    }
    reload();
  };
  target.addEventListener('vite:preloadError', onFailure);
  return () => target.removeEventListener('vite:preloadError', onFailure);
}
