import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/api';
import { AppToaster, notify, toaster, TOAST_DURATION_MS } from './toaster';

// jsdom has no PointerEvent; without it fireEvent.pointer* events carry no coordinates.
class TestPointerEvent extends MouseEvent {
  readonly pointerId: number;
  constructor(type: string, init: PointerEventInit = {}) {
    super(type, init);
    this.pointerId = init.pointerId ?? 0;
  }
}

beforeEach(() => {
  vi.stubGlobal('PointerEvent', TestPointerEvent);
  vi.useFakeTimers({ shouldAdvanceTime: true });
  render(<AppToaster />);
});

afterEach(() => {
  act(() => toaster.remove());
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const toasts = () => screen.queryAllByTestId('toast');

describe('notifications (spec sections 8 and 9)', () => {
  it('shows at most one at a time: the newest replaces the one on screen', async () => {
    act(() => void notify.success('Profil aktualisiert'));
    await vi.advanceTimersByTimeAsync(50);
    act(() => void notify.success('Passwort geändert'));
    // The replaced one leaves (its exit takes 200 ms); the new one never shows beside it.
    expect(toasts()).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(400);
    expect(toasts()).toHaveLength(1);
    expect(screen.getByText('Passwort geändert')).toBeTruthy();
    expect(screen.queryByText('Profil aktualisiert')).toBeNull();
  });

  it('disappears after 5 s', async () => {
    act(() => void notify.success('Bewerbung eingereicht!', 'Ihr Fahrzeug wurde zur Prüfung eingereicht.'));
    await vi.advanceTimersByTimeAsync(50);
    expect(screen.getByText('Ihr Fahrzeug wurde zur Prüfung eingereicht.')).toBeTruthy();
    await vi.advanceTimersByTimeAsync(TOAST_DURATION_MS - 500);
    expect(toasts()).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1500);
    expect(toasts()).toHaveLength(0);
  });

  it("shows the server's German message in an error toast, else the fallback", async () => {
    act(
      () =>
        void notify.error('Login fehlgeschlagen', new ApiError(401, 'Email oder Passwort ist falsch.'), 'x'),
    );
    await vi.advanceTimersByTimeAsync(50);
    expect(screen.getByText('Email oder Passwort ist falsch.')).toBeTruthy();

    act(
      () =>
        void notify.error(
          'Login fehlgeschlagen',
          new TypeError('fetch failed'),
          'Falsche Email oder Passwort.',
        ),
    );
    await vi.advanceTimersByTimeAsync(400);
    expect(screen.getByText('Falsche Email oder Passwort.')).toBeTruthy();
    expect(screen.queryByText('fetch failed')).toBeNull();
  });

  it('shows the fallback, not a bare status line, when the server sent no message', async () => {
    act(
      () =>
        void notify.error(
          'Aktualisierung fehlgeschlagen',
          new ApiError(502, 'Bad Gateway', false),
          'Bitte versuchen Sie es erneut.',
        ),
    );
    await vi.advanceTimersByTimeAsync(50);
    expect(screen.getByText('Bitte versuchen Sie es erneut.')).toBeTruthy();
    expect(screen.queryByText('Bad Gateway')).toBeNull();
  });

  it('is dismissed by a swipe to the right of more than 50 px, not by a shorter one', async () => {
    act(() => void notify.info('Hinweis'));
    await vi.advanceTimersByTimeAsync(50);
    const toast = toasts()[0]!;
    toast.setPointerCapture = () => undefined;
    fireEvent.pointerDown(toast, { clientX: 100, pointerId: 1 });
    fireEvent.pointerMove(toast, { clientX: 140, pointerId: 1 });
    fireEvent.pointerUp(toast, { clientX: 140, pointerId: 1 });
    await vi.advanceTimersByTimeAsync(50);
    expect(toasts()).toHaveLength(1);

    fireEvent.pointerDown(toast, { clientX: 100, pointerId: 1 });
    fireEvent.pointerUp(toast, { clientX: 160, pointerId: 1 });
    await vi.advanceTimersByTimeAsync(1000);
    expect(toasts()).toHaveLength(0);
  });

  it('F8 moves focus to the notification area', async () => {
    act(() => void notify.info('Hinweis'));
    await vi.advanceTimersByTimeAsync(50);
    const region = screen.getByRole('region', { name: /Notifications/ });
    fireEvent.keyDown(document, { key: 'F8', code: 'F8' });
    await vi.advanceTimersByTimeAsync(50);
    expect(document.activeElement).toBe(region);
  });
});
