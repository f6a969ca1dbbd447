import { COUNT_UP_MS, STATS } from '@schlosstreffen/shared';
import { act, cleanup, render, screen } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { StatsStrip } from './stats-strip';

const format = (value: number, suffix: string) => `${new Intl.NumberFormat('de-DE').format(value)}${suffix}`;
const FINAL = [STATS.guests, STATS.vehicles, STATS.horsepower, STATS.locations].map((item) =>
  format(item.value, item.suffix),
);
const shown = () => screen.getAllByTestId('stat-value').map((element) => element.textContent);

/** An IntersectionObserver whose callbacks the test calls, as the browser would. */
let observed: ((visible: boolean) => void) | undefined;
class FakeObserver {
  constructor(private readonly callback: IntersectionObserverCallback) {}
  observe() {
    observed = (visible) =>
      this.callback([{ isIntersecting: visible } as IntersectionObserverEntry], this as never);
  }
  disconnect() {
    observed = undefined;
  }
}

beforeEach(() => {
  vi.stubGlobal('IntersectionObserver', FakeObserver);
  vi.useFakeTimers({ toFake: ['requestAnimationFrame', 'cancelAnimationFrame', 'performance'] });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  observed = undefined;
});

describe('StatsStrip', () => {
  it('carries the final figures in the server-rendered HTML', () => {
    const html = renderToString(<StatsStrip />);
    for (const value of FINAL) expect(html).toContain(value);
  });

  it('names the meeting and its guests once it is over', () => {
    render(<StatsStrip over="Schlosstreffen 2026" />);
    expect(screen.getByRole('region', { name: 'Zahlen zum Schlosstreffen 2026' })).toBeTruthy();
    expect(screen.getByText('Gäste')).toBeTruthy();
    expect(screen.queryByText('Erwartete Gäste')).toBeNull();
    expect(shown()).toEqual(FINAL);
  });

  it('keeps the figures of a strip already in view when the page comes alive', () => {
    render(<StatsStrip />);
    expect(shown()).toEqual(FINAL);
    act(() => observed?.(true));
    expect(observed).toBeUndefined();
    expect(shown()).toEqual(FINAL);
  });

  it('counts up from 0 once a strip out of sight scrolls into view', () => {
    render(<StatsStrip />);
    act(() => observed?.(false));
    expect(shown()).toEqual(FINAL.map(() => expect.stringMatching(/^0/)));
    act(() => observed?.(true));
    act(() => vi.advanceTimersByTime(COUNT_UP_MS / 2));
    const halfway = shown();
    expect(halfway).not.toEqual(FINAL);
    expect(halfway.some((value) => !value?.startsWith('0'))).toBe(true);
    act(() => vi.advanceTimersByTime(COUNT_UP_MS));
    expect(shown()).toEqual(FINAL);
  });
});
