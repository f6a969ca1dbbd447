import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RENDERED_AT_KEY } from '../../lib/rendered-at';
import { Countdown, countdownAt } from './countdown';

const START = '2026-06-20T10:00:00+02:00';
const END = '2026-06-20T20:00:00+02:00';
const startMs = Date.parse(START);
const endMs = Date.parse(END);

function countdownElement(queryClient = new QueryClient()) {
  return (
    <QueryClientProvider client={queryClient}>
      <Countdown
        eventName="Schlosstreffen"
        eventStart={START}
        eventEnd={END}
        year={2026}
        runningNote="Heute bis 20:00 Uhr"
        endedNote="Danke fürs Kommen."
      />
    </QueryClientProvider>
  );
}

function renderCountdown() {
  return render(countdownElement());
}

const unit = (key: string) => screen.getByTestId(`countdown-${key}`).firstChild?.textContent;

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('countdownAt', () => {
  it('splits the time left into days, hours, minutes and seconds', () => {
    const now = startMs - ((2 * 24 + 3) * 3600 + 4 * 60 + 5) * 1000;
    expect(countdownAt(now, startMs, endMs)).toEqual({
      phase: 'upcoming',
      days: 2,
      hours: 3,
      minutes: 4,
      seconds: 5,
    });
  });

  it('is running from the start and ended from the end, never negative', () => {
    expect(countdownAt(startMs, startMs, endMs)).toEqual({ phase: 'running' });
    expect(countdownAt(endMs - 1, startMs, endMs)).toEqual({ phase: 'running' });
    expect(countdownAt(endMs, startMs, endMs)).toEqual({ phase: 'ended' });
    expect(countdownAt(endMs + 86_400_000, startMs, endMs)).toEqual({ phase: 'ended' });
  });
});

describe('Countdown', () => {
  it('ticks every second', () => {
    vi.setSystemTime(startMs - ((1 * 24 + 2) * 3600 + 3 * 60 + 5) * 1000);
    renderCountdown();

    expect([unit('days'), unit('hours'), unit('minutes'), unit('seconds')]).toEqual(['01', '02', '03', '05']);
    expect(screen.getByRole('timer').getAttribute('aria-label')).toBe(
      'Noch 1 Tag, 2 Stunden, 3 Minuten, 5 Sekunden bis zum Start',
    );

    act(() => vi.advanceTimersByTime(1000));
    expect(unit('seconds')).toBe('04');

    act(() => vi.advanceTimersByTime(5000));
    expect([unit('minutes'), unit('seconds')]).toEqual(['02', '59']);
  });

  it('switches to the running message at the start and to the closing message at the end', () => {
    vi.setSystemTime(startMs - 2000);
    renderCountdown();
    expect(unit('seconds')).toBe('02');

    act(() => vi.advanceTimersByTime(1000));
    expect(unit('seconds')).toBe('01');

    act(() => vi.advanceTimersByTime(1000));
    expect(screen.queryByRole('timer')).toBeNull();
    expect(screen.getByTestId('countdown-message').textContent).toBe('Das Schlosstreffen läuft gerade!');
    expect(screen.getByText('Heute bis 20:00 Uhr')).toBeTruthy();

    act(() => vi.advanceTimersByTime(endMs - startMs));
    expect(screen.getByTestId('countdown-message').textContent).toBe(
      'Das Schlosstreffen 2026 ist vorbei – danke an alle!',
    );
    expect(screen.getByText('Danke fürs Kommen.')).toBeTruthy();
  });

  it('shows the closing message, not negative numbers, long after the event', () => {
    vi.setSystemTime(endMs + 30 * 86_400_000);
    const { container } = renderCountdown();

    expect(screen.getByTestId('countdown-message').textContent).toContain('ist vorbei');
    expect(container.textContent).not.toMatch(/-\d/);
    expect(screen.queryByTestId('countdown-days')).toBeNull();

    act(() => vi.advanceTimersByTime(5000));
    expect(screen.getByTestId('countdown-message').textContent).toContain('ist vorbei');
  });
});

describe('Countdown on a server-rendered page', () => {
  it("hydrates with the moment the server rendered, then counts from the browser's time", async () => {
    // The server rendered one day before the start, the browser opens the page an hour later.
    const renderedAt = startMs - 86_400_000;
    const serverClient = new QueryClient();
    serverClient.setQueryData(RENDERED_AT_KEY, renderedAt);
    vi.setSystemTime(renderedAt);
    const serverHtml = renderToString(countdownElement(serverClient));

    vi.setSystemTime(renderedAt + 3_600_000);
    const container = document.createElement('div');
    container.innerHTML = serverHtml;
    document.body.append(container);
    const browserClient = new QueryClient();
    browserClient.setQueryData(RENDERED_AT_KEY, renderedAt);
    const errors: unknown[] = [];
    const { hydrateRoot } = await import('react-dom/client');
    let root: ReturnType<typeof hydrateRoot> | undefined;
    act(() => {
      root = hydrateRoot(container, countdownElement(browserClient), {
        onRecoverableError: (error) => errors.push(error),
      });
    });
    expect(errors).toEqual([]);
    // The effect after hydration shows the browser's time: 23 hours left.
    expect(container.querySelector('[data-testid="countdown-hours"]')?.firstChild?.textContent).toBe('23');
    expect(browserClient.getQueryData(RENDERED_AT_KEY)).toBeUndefined();
    act(() => root?.unmount());
    container.remove();
  });
});
