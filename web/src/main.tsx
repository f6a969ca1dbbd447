/**
 * The entry every page loads. A server-rendered landing page is complete without the app: its
 * countdown runs on a few lines of its own (countdown-ticker.ts) and the app (React, the router,
 * the queries) is loaded and hydrated when the visitor first reaches for the page (pointer, touch,
 * keyboard, focus, scrolling) or when something must show at once. Every other page starts the app
 * right away.
 */
import { startCountdownTicker } from './features/landing/countdown-ticker';
import { LOGOUT_NOTICE_KEY } from './lib/logout-notice';
import { whenPageLive } from './lib/page-live';
import './styles.css';

const rootElement = document.getElementById('root');
if (!rootElement) throw new Error('Root element #root fehlt in index.html');

const loadApp = () => import('./app').then(({ startApp }) => startApp(rootElement));

/** Events that show the visitor reaching for the page. */
const INTENT_EVENTS = ['pointerdown', 'touchstart', 'keydown', 'focusin', 'wheel', 'scroll'] as const;

function noticeWaiting(): boolean {
  try {
    return sessionStorage.getItem(LOGOUT_NOTICE_KEY) !== null;
  } catch {
    return false;
  }
}

function hydrateOnDemand(root: HTMLElement): void {
  let started: Promise<void> | undefined;
  const live = whenPageLive();
  /** Buttons pressed before the app was live: pressed again once it is. */
  const pressed: HTMLElement[] = [];
  const holdClick = (event: MouseEvent) => {
    const button = (event.target as Element | null)?.closest<HTMLElement>('button, [role="button"]');
    if (!button || !root.contains(button)) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    if (!pressed.includes(button)) pressed.push(button);
    void start();
  };
  let stopTicker = () => {};
  const start = () => {
    started ??= (async () => {
      for (const type of INTENT_EVENTS) window.removeEventListener(type, start, true);
      stopTicker();
      await loadApp();
      // The app's first commit can come before the page's own content is hydrated (at most a
      // moment: a page that never says so gets its buttons pressed after two seconds).
      await Promise.race([live, new Promise((resolve) => setTimeout(resolve, 2000))]);
      document.removeEventListener('click', holdClick, true);
      for (const button of pressed) {
        if (!button.isConnected) continue;
        // Pressing also focused it, which the app did not see yet (an accordion answers clicks of
        // a focused trigger only): focus it anew, then press.
        if (document.activeElement === button) button.blur();
        button.focus({ preventScroll: true });
        button.click();
      }
    })();
    return started;
  };
  // The ticker hands over when the event begins: started after `start` exists, since its first tick
  // may already call it.
  stopTicker = startCountdownTicker(root, () => void start());
  document.addEventListener('click', holdClick, true);
  for (const type of INTENT_EVENTS) window.addEventListener(type, start, { capture: true, passive: true });
  // A notice waits to be shown (after logout): the app shows it.
  if (noticeWaiting()) void start();
}

if (window.$_TSR && rootElement.querySelector('[data-hydrate="on-demand"]')) hydrateOnDemand(rootElement);
else void loadApp();
