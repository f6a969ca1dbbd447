import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Countdown } from './countdown';
import { startCountdownTicker } from './countdown-ticker';

const START = '2026-06-20T10:00:00+02:00';
const END = '2026-06-20T20:00:00+02:00';
const startMs = Date.parse(START);

/** The countdown's markup as the server renders it at `now`. */
function serverMarkup(now: number): HTMLElement {
  vi.setSystemTime(now);
  const container = document.createElement('div');
  container.innerHTML = renderToString(
    <QueryClientProvider client={new QueryClient()}>
      <Countdown eventName="Schlosstreffen" eventStart={START} eventEnd={END} year={2026} />
    </QueryClientProvider>,
  );
  document.body.append(container);
  return container;
}

const digits = (root: HTMLElement) =>
  ['days', 'hours', 'minutes', 'seconds'].map(
    (key) => root.querySelector(`[data-testid="countdown-${key}"] [data-countdown-digits]`)?.textContent,
  );

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  document.body.innerHTML = '';
});

describe('startCountdownTicker', () => {
  it('moves the server-rendered figures and label on every second', () => {
    const root = serverMarkup(startMs - 2 * 86_400_000 - 10_000);
    expect(digits(root)).toEqual(['02', '00', '00', '10']);
    const onPhaseChange = vi.fn();
    const stop = startCountdownTicker(root, onPhaseChange);
    vi.advanceTimersByTime(3000);
    expect(digits(root)).toEqual(['02', '00', '00', '07']);
    expect(root.querySelector('[role="timer"]')?.getAttribute('aria-label')).toBe(
      'Noch 2 Tage, 0 Stunden, 0 Minuten, 7 Sekunden bis zum Start',
    );
    stop();
    vi.advanceTimersByTime(3000);
    expect(digits(root)).toEqual(['02', '00', '00', '07']);
    expect(onPhaseChange).not.toHaveBeenCalled();
  });

  it("counts by the app's clock the server wrote into the page, whatever the device's clock says", () => {
    const written = startMs - 86_400_000 - 10_000;
    const root = serverMarkup(written);
    root.querySelector<HTMLElement>('[role="timer"]')!.dataset.now = new Date(written).toISOString();
    vi.setSystemTime(written + 365 * 86_400_000);
    startCountdownTicker(root, vi.fn());
    expect(digits(root)).toEqual(['01', '00', '00', '10']);
    vi.advanceTimersByTime(2000);
    expect(digits(root)).toEqual(['01', '00', '00', '08']);
  });

  it('hands over to the app when the event begins', () => {
    const root = serverMarkup(startMs - 2000);
    const onPhaseChange = vi.fn();
    startCountdownTicker(root, onPhaseChange);
    vi.advanceTimersByTime(1000);
    expect(onPhaseChange).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1000);
    expect(onPhaseChange).toHaveBeenCalledOnce();
    vi.advanceTimersByTime(5000);
    expect(onPhaseChange).toHaveBeenCalledOnce();
  });

  it('does nothing on a page without a running countdown', () => {
    const root = serverMarkup(startMs + 3_600_000);
    const onPhaseChange = vi.fn();
    startCountdownTicker(root, onPhaseChange);
    vi.advanceTimersByTime(5000);
    expect(onPhaseChange).not.toHaveBeenCalled();
  });
});
