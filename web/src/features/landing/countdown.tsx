import { COUNTDOWN_TICK_MS } from '@schlosstreffen/shared';
import { useEffect, useState, type ReactNode } from 'react';

type CountdownState =
  | { phase: 'upcoming'; days: number; hours: number; minutes: number; seconds: number }
  | { phase: 'running' }
  | { phase: 'ended' };

/** Time left until `start`; 'running' between start and end, 'ended' afterwards (never negative numbers). */
export function countdownAt(now: number, start: number, end: number): CountdownState {
  if (now >= end) return { phase: 'ended' };
  if (now >= start) return { phase: 'running' };
  const total = Math.floor((start - now) / 1000);
  return {
    phase: 'upcoming',
    days: Math.floor(total / 86_400),
    hours: Math.floor((total % 86_400) / 3600),
    minutes: Math.floor((total % 3600) / 60),
    seconds: total % 60,
  };
}

/** The countdown, recomputed every second until the event has ended. */
function useCountdown(start: number, end: number): CountdownState {
  const [state, setState] = useState(() => countdownAt(Date.now(), start, end));
  const ended = state.phase === 'ended';

  useEffect(() => {
    if (ended) return undefined;
    const update = () => setState(countdownAt(Date.now(), start, end));
    update();
    const timer = window.setInterval(update, COUNTDOWN_TICK_MS);
    return () => window.clearInterval(timer);
  }, [start, end, ended]);

  return state;
}

const UNITS = [
  { key: 'days', label: 'Tage', singular: 'Tag' },
  { key: 'hours', label: 'Stunden', singular: 'Stunde' },
  { key: 'minutes', label: 'Minuten', singular: 'Minute' },
  { key: 'seconds', label: 'Sekunden', singular: 'Sekunde' },
] as const;

/**
 * Days, hours, minutes and seconds until the event start; once it has begun or ended a German
 * message (with an optional note below it) instead of negative numbers.
 */
export function Countdown({
  eventName,
  eventStart,
  eventEnd,
  year,
  runningNote,
  endedNote,
}: {
  eventName: string;
  eventStart: string;
  eventEnd: string;
  year: number;
  runningNote?: ReactNode;
  endedNote?: ReactNode;
}) {
  const state = useCountdown(Date.parse(eventStart), Date.parse(eventEnd));

  if (state.phase !== 'upcoming') {
    const running = state.phase === 'running';
    const note = running ? runningNote : endedNote;
    return (
      <div
        data-testid="countdown-panel"
        data-phase={state.phase}
        data-target={eventStart}
        className="relative w-full max-w-xl overflow-hidden rounded-2xl border border-gold-500/30 bg-night-900/75 px-6 py-7 shadow-[0_0_80px_-24px_rgba(212,168,72,0.55)] backdrop-blur sm:px-10"
      >
        <span
          aria-hidden="true"
          className="absolute inset-x-10 top-0 h-px bg-linear-to-r from-transparent via-gold-400/70 to-transparent"
        />
        <p className="flex items-center justify-center gap-2 text-xs font-semibold tracking-[0.3em] text-gold-400 uppercase">
          {running ? (
            <span aria-hidden="true" className="relative flex size-2">
              <span className="absolute inline-flex size-full animate-ping rounded-full bg-gold-400 opacity-75 motion-reduce:animate-none" />
              <span className="relative inline-flex size-2 rounded-full bg-gold-400" />
            </span>
          ) : null}
          {running ? 'Jetzt live' : 'Rückblick'}
        </p>
        <p data-testid="countdown-message" className="mt-3 font-display text-2xl text-gold-200 sm:text-3xl">
          {running
            ? `Das ${eventName} läuft gerade!`
            : `Das ${eventName} ${year} ist vorbei – danke an alle!`}
        </p>
        {note ? <div className="mt-3 text-sm leading-relaxed text-ash-300 sm:text-base">{note}</div> : null}
      </div>
    );
  }

  const summary = UNITS.map(
    ({ key, label, singular }) => `${state[key]} ${state[key] === 1 ? singular : label}`,
  ).join(', ');

  return (
    <div
      role="timer"
      aria-label={`Noch ${summary} bis zum Start`}
      data-target={eventStart}
      // Server-rendered at the server's moment: hydration keeps those numbers, the first tick (at
      // mount) shows the browser's.
      suppressHydrationWarning
      className="w-full max-w-xl"
    >
      <ol className="grid grid-cols-4 gap-2 sm:gap-4" aria-hidden="true">
        {UNITS.map(({ key, label }) => (
          <li
            key={key}
            data-testid={`countdown-${key}`}
            className="flex flex-col items-center rounded-xl border border-gold-500/25 bg-night-900/70 px-1 py-3 backdrop-blur sm:py-4"
          >
            <span
              className="font-display text-3xl text-parchment tabular-nums sm:text-5xl"
              suppressHydrationWarning
            >
              {String(state[key]).padStart(2, '0')}
            </span>
            <span className="mt-1 text-[0.65rem] tracking-[0.12em] text-ash-400 uppercase sm:text-xs sm:tracking-[0.2em]">
              {label}
            </span>
          </li>
        ))}
      </ol>
    </div>
  );
}
