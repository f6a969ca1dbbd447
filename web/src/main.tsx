/**
 * The entry every page loads. A server-rendered landing page is complete without the app: its
 * countdown runs on a few lines of its own (countdown-ticker.ts) and the app (React, the router,
 * the queries) is loaded and hydrated when the visitor first reaches for the page (pointer, touch,
 * keyboard, focus, scrolling) or when something must show at once. Every other page starts the app
 * right away. On a server-rendered page, what the visitor presses before the app is live is kept and
 * done again once it is: links followed and buttons pressed, forms sent (never natively, which
 * would put the fields into the address). Text typed stays in the fields (React keeps it when it
 * hydrates) and the forms take it over when their fields mount (useTypedValue).
 */
import { startCountdownTicker } from './features/landing/countdown-ticker';
import { reloadOnceForFailedChunks } from './lib/failed-chunks';
import { LOGOUT_NOTICE_KEY } from './lib/logout-notice';
import { whenPageLive } from './lib/page-live';
import './styles.css';

// A page of an earlier build whose chunks fail to load loads once anew (after a deploy).
reloadOnceForFailedChunks();
// Which release the page runs, when the build was given one (VITE_BUILD_ID, e.g. the commit):
// support reads it off the page during a rolling deploy, and each release's chunks have names of their own.
if (import.meta.env.VITE_BUILD_ID) document.documentElement.dataset.build = import.meta.env.VITE_BUILD_ID;

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

/** Holds presses and submissions until `release`, which hands them to the app. */
function holdUntilLive(root: HTMLElement, onHold: () => void) {
  const pressed: HTMLElement[] = [];
  const submitted: HTMLFormElement[] = [];
  const holdClick = (event: MouseEvent) => {
    const button = (event.target as Element | null)?.closest<HTMLElement>('a[href], button, [role="button"]');
    if (!button || !root.contains(button)) return;
    // A link opened elsewhere (new tab, window, download) is the browser's own business.
    const elsewhere = event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey;
    if (button instanceof HTMLAnchorElement && (elsewhere || button.target === '_blank')) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    if (!pressed.includes(button)) pressed.push(button);
    onHold();
  };
  const holdSubmit = (event: SubmitEvent) => {
    const form = event.target as HTMLFormElement;
    if (!root.contains(form)) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    if (!submitted.includes(form)) submitted.push(form);
    onHold();
  };
  document.addEventListener('click', holdClick, true);
  document.addEventListener('submit', holdSubmit, true);
  return () => {
    document.removeEventListener('click', holdClick, true);
    document.removeEventListener('submit', holdSubmit, true);
    for (const button of pressed) {
      if (!button.isConnected) continue;
      // Pressing also focused it, which the app did not see yet (an accordion answers clicks of
      // a focused trigger only): focus it anew, then press.
      if (document.activeElement === button) button.blur();
      button.focus({ preventScroll: true });
      button.click();
    }
    for (const form of submitted) if (form.isConnected) form.requestSubmit();
    // For whoever needs to know (the browser tests): the page's content is live.
    root.dataset.live = '';
  };
}

/**
 * Starts the app on a server-rendered page (at once, or with `onDemand` at the first sign of the
 * visitor) and releases what was held once the page's content is live: its page says so (the
 * app's first commit can come before the page's own content is hydrated), at most two seconds
 * after the app's first commit.
 */
function takeOver(root: HTMLElement, onDemand: boolean): void {
  let started: Promise<void> | undefined;
  const live = whenPageLive();
  let stopTicker = () => {};
  const start = () => {
    started ??= (async () => {
      for (const type of INTENT_EVENTS) window.removeEventListener(type, start, true);
      stopTicker();
      // The app is committed and the router has settled; then the page's content is live (its
      // effects ran): a part of the page still loading its code is not hydrated yet.
      await loadApp();
      await Promise.race([live, new Promise((resolve) => setTimeout(resolve, 2000))]);
      release();
    })();
    return started;
  };
  const release = holdUntilLive(root, () => void start());
  if (!onDemand || noticeWaiting()) {
    // A notice waits to be shown (after logout): the app shows it.
    void start();
    return;
  }
  // The ticker hands over when the event begins: started after `start` exists, since its first tick
  // may already call it.
  stopTicker = startCountdownTicker(root, () => void start());
  for (const type of INTENT_EVENTS) window.addEventListener(type, start, { capture: true, passive: true });
}

if (window.$_TSR) takeOver(rootElement, Boolean(rootElement.querySelector('[data-hydrate="on-demand"]')));
else void loadApp();
