import { COUNTDOWN_TICK_MS } from '@schlosstreffen/shared';
import { COUNTDOWN_UNITS, countdownAt, countdownDigits, countdownLabel } from './countdown-state';

/**
 * Keeps a server-rendered countdown running before the page is hydrated, by the app's clock (the
 * moment the server wrote the page, run on by the device's clock): every second it writes
 * the figures and the screen-reader label into the markup. When the phase changes (the event
 * begins) it calls `onPhaseChange` instead, since only the app renders the other panels. Returns
 * a function that stops it.
 */
export function startCountdownTicker(root: ParentNode, onPhaseChange: () => void): () => void {
  const timer = root.querySelector<HTMLElement>('[role="timer"][data-target][data-end]');
  if (!timer) return () => undefined;
  const start = Date.parse(timer.dataset.target ?? '');
  const end = Date.parse(timer.dataset.end ?? '');
  // The app's clock: it read `data-now` when the server wrote the page, about when it was opened
  // (`performance.now()` ago).
  const written = Date.parse(timer.dataset.now ?? '');
  const offset = Number.isNaN(written) ? 0 : written + performance.now() - Date.now();
  const cells = COUNTDOWN_UNITS.map(({ key }) => ({
    key,
    digits: timer.querySelector(`[data-testid="countdown-${key}"] [data-countdown-digits]`),
  }));
  const tick = () => {
    const state = countdownAt(Date.now() + offset, start, end);
    if (state.phase !== 'upcoming') {
      window.clearInterval(interval);
      onPhaseChange();
      return;
    }
    timer.setAttribute('aria-label', countdownLabel(state));
    for (const { key, digits } of cells) {
      const text = countdownDigits(state, key);
      if (digits && digits.textContent !== text) digits.textContent = text;
    }
  };
  const interval = window.setInterval(tick, COUNTDOWN_TICK_MS);
  tick();
  return () => window.clearInterval(interval);
}
