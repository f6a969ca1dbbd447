import { COUNTDOWN_TICK_MS } from '@schlosstreffen/shared';
import type { ReactNode } from 'react';
import { useAppNow } from '../../lib/app-clock';
import { getSiteConfig } from '../../lib/site-config';
import { COUNTDOWN_UNITS, countdownAt, countdownDigits, countdownLabel } from './countdown-state';

export { countdownAt } from './countdown-state';

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
  // Every second by the app's clock until the event has ended; a server-rendered page starts at the
  // moment the server wrote it, so hydration finds the same markup.
  const end = Date.parse(eventEnd);
  const state = countdownAt(useAppNow(COUNTDOWN_TICK_MS, end), Date.parse(eventStart), end);

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

  return (
    <div
      role="timer"
      aria-label={countdownLabel(state)}
      data-target={eventStart}
      data-end={eventEnd}
      // The moment the server wrote the page: the ticker runs the app's clock from it.
      data-now={getSiteConfig().now}
      // Before hydration the ticker moves the figures on: hydration keeps them, the first tick
      // after it shows React's.
      suppressHydrationWarning
      className="w-full max-w-xl"
    >
      <ol className="grid grid-cols-4 gap-2 sm:gap-4" aria-hidden="true">
        {COUNTDOWN_UNITS.map(({ key, label }) => (
          <li
            key={key}
            data-testid={`countdown-${key}`}
            className="flex flex-col items-center rounded-xl border border-gold-500/25 bg-night-900/70 px-1 py-3 backdrop-blur sm:py-4"
          >
            <span
              data-countdown-digits
              className="font-display text-3xl text-parchment tabular-nums sm:text-5xl"
              suppressHydrationWarning
            >
              {countdownDigits(state, key)}
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
