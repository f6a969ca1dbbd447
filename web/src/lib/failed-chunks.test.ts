import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { reloadOnceForFailedChunks } from './failed-chunks';

/** Vite's event for a dynamic import that failed, with its error. */
function fail(message: string): void {
  const event = Object.assign(new Event('vite:preloadError', { cancelable: true }), {
    payload: new TypeError(message),
  });
  window.dispatchEvent(event);
}

const STALE = 'Failed to fetch dynamically imported module: https://schlosstreffen.test/assets/route-Ab12.js';

describe('a chunk that fails to load', () => {
  let reload: ReturnType<typeof vi.fn<() => void>>;
  let stop: () => void;
  beforeEach(() => {
    sessionStorage.clear();
    reload = vi.fn<() => void>();
    stop = reloadOnceForFailedChunks(window, reload);
  });
  afterEach(() => {
    stop();
    vi.restoreAllMocks();
  });

  it('reloads the page once; failing again after that reload it does not reload again', () => {
    fail(STALE);
    expect(reload).toHaveBeenCalledTimes(1);
    // The reloaded page (a new listener, the same tab) meets the same failure: no loop.
    stop();
    stop = reloadOnceForFailedChunks(window, reload);
    fail(STALE);
    expect(reload).toHaveBeenCalledTimes(1);
    // Another chunk (a later deploy) is reloaded for once as well.
    fail(STALE.replace('Ab12', 'Cd34'));
    expect(reload).toHaveBeenCalledTimes(2);
  });

  it('does not reload while the browser is offline, and reloads once it is back', () => {
    const online = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    fail(STALE);
    expect(reload).not.toHaveBeenCalled();
    online.mockReturnValue(true);
    fail(STALE);
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('does not reload where session storage cannot record it', () => {
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('quota', 'QuotaExceededError');
    });
    fail(STALE);
    expect(reload).not.toHaveBeenCalled();
  });
});
