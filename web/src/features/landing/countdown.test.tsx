import { act, cleanup, render, screen } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { DEFAULT_SITE_CONFIG, type SiteConfig } from '@schlosstreffen/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetAppClock } from '../../lib/app-clock';
import { Countdown, countdownAt } from './countdown';

const site = vi.hoisted(() => ({ config: undefined as SiteConfig | undefined }));
vi.mock('../../lib/site-config', () => ({ getSiteConfig: () => site.config ?? DEFAULT_SITE_CONFIG }));

const START = '2026-06-20T10:00:00+02:00';
const END = '2026-06-20T20:00:00+02:00';
const startMs = Date.parse(START);
const endMs = Date.parse(END);

function countdownElement() {
  return (
    <Countdown
      eventName="Schlosstreffen"
      eventStart={START}
      eventEnd={END}
      year={2026}
      runningNote="Heute bis 20:00 Uhr"
      endedNote="Danke fürs Kommen."
    />
  );
}

function renderCountdown() {
  return render(countdownElement());
}

const unit = (key: string) => screen.getByTestId(`countdown-${key}`).firstChild?.textContent;

beforeEach(() => {
  vi.useFakeTimers();
  site.config = undefined;
  resetAppClock();
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
  it("hydrates with the moment the server wrote the page, then counts by the app's clock", async () => {
    // The server wrote the page one day before the start by the app's clock; the device's clock is
    // a year off, and the browser hydrates the page an hour after it was opened.
    const written = startMs - 86_400_000;
    site.config = { ...DEFAULT_SITE_CONFIG, now: new Date(written).toISOString() };
    vi.setSystemTime(written + 365 * 86_400_000);
    const serverHtml = renderToString(countdownElement());
    expect(serverHtml).toContain(`data-now="${site.config.now}"`);

    act(() => vi.advanceTimersByTime(3_600_000));
    const container = document.createElement('div');
    container.innerHTML = serverHtml;
    document.body.append(container);
    const errors: unknown[] = [];
    const { hydrateRoot } = await import('react-dom/client');
    let root: ReturnType<typeof hydrateRoot> | undefined;
    act(() => {
      root = hydrateRoot(container, countdownElement(), {
        onRecoverableError: (error) => errors.push(error),
      });
    });
    expect(errors).toEqual([]);
    // The effect after hydration shows the app's moment: 23 hours left.
    expect(container.querySelector('[data-testid="countdown-hours"]')?.firstChild?.textContent).toBe('23');
    act(() => vi.advanceTimersByTime(1000));
    expect(container.querySelector('[data-testid="countdown-seconds"]')?.firstChild?.textContent).toBe('59');
    act(() => root?.unmount());
    container.remove();
  });
});
