import { COUNT_UP_MS, STATS } from '@schlosstreffen/shared';
import { useEffect, useRef, useState } from 'react';

/** The figures before and on the meeting day: what is expected. */
const AHEAD = [
  { ...STATS.guests, label: 'Erwartete Gäste' },
  { ...STATS.vehicles, label: 'Getunte Fahrzeuge' },
  { ...STATS.horsepower, label: 'PS gesamt' },
  { ...STATS.locations, label: 'Einzigartige Location' },
] as const;

/** After the meeting: what it was. */
const PAST = [
  { ...STATS.guests, label: 'Gäste' },
  { ...STATS.vehicles, label: 'Getunte Fahrzeuge' },
  { ...STATS.horsepower, label: 'PS gesamt' },
  { ...STATS.locations, label: 'Einzigartige Location' },
] as const;

const numberFormat = new Intl.NumberFormat('de-DE');

function prefersReducedMotion(): boolean {
  return (
    typeof window !== 'undefined' &&
    typeof window.matchMedia === 'function' &&
    window.matchMedia('(prefers-reduced-motion: reduce)').matches
  );
}

/** Ease-out: fast at first, settling on the final value. */
const easeOut = (t: number) => 1 - (1 - t) ** 3;

/**
 * Progress 0…1 of the count-up over `duration` ms. The final values come first: on the server, in
 * the first client render (so the page hydrates as it arrived) and for visitors without JavaScript.
 * A strip that is still out of sight when the page comes alive drops to 0 unseen and counts up once
 * it scrolls into view; one already in view, or with reduced motion, keeps its values.
 */
function useCountUp(duration: number) {
  const ref = useRef<HTMLElement>(null);
  const [progress, setProgress] = useState(1);

  useEffect(() => {
    const element = ref.current;
    if (prefersReducedMotion() || typeof IntersectionObserver === 'undefined' || !element) return undefined;
    let frame = 0;
    let startedAt: number | null = null;
    const step = () => {
      startedAt ??= performance.now();
      const t = Math.min(1, (performance.now() - startedAt) / duration);
      setProgress(t);
      if (t < 1) frame = requestAnimationFrame(step);
    };
    let first = true;
    const observer = new IntersectionObserver((entries) => {
      const visible = entries.some((entry) => entry.isIntersecting);
      if (first) {
        first = false;
        if (visible) {
          observer.disconnect();
          return;
        }
        setProgress(0);
        return;
      }
      if (visible) {
        observer.disconnect();
        frame = requestAnimationFrame(step);
      }
    });
    observer.observe(element);
    return () => {
      observer.disconnect();
      cancelAnimationFrame(frame);
    };
  }, [duration]);

  return { ref, progress };
}

/**
 * The stats strip: expected guests, vehicles, total horsepower, location, counting up over 2 s; once
 * the meeting `over` (its name) is over, the guests it had.
 */
export function StatsStrip({ over }: { over?: string | null }) {
  const { ref, progress } = useCountUp(COUNT_UP_MS);
  const eased = easeOut(progress);

  return (
    <section
      ref={ref}
      aria-label={over ? `Zahlen zum ${over}` : 'Zahlen zum Event'}
      className="border-y border-gold-500/15 bg-night-900/60"
    >
      <dl className="mx-auto grid max-w-6xl grid-cols-2 gap-y-8 px-6 py-10 sm:py-12 lg:grid-cols-4">
        {(over ? PAST : AHEAD).map((item) => {
          const final = `${numberFormat.format(item.value)}${item.suffix}`;
          const current =
            progress >= 1 ? final : `${numberFormat.format(Math.round(item.value * eased))}${item.suffix}`;
          return (
            <div key={item.label} className="flex flex-col items-center gap-1 text-center">
              <dt className="order-2 text-xs tracking-[0.2em] text-ash-400 uppercase sm:text-sm">
                {item.label}
              </dt>
              <dd className="order-1 font-display text-4xl text-gold-300 tabular-nums sm:text-5xl">
                <span aria-hidden="true" data-testid="stat-value">
                  {current}
                </span>
                <span className="sr-only">{final}</span>
              </dd>
            </div>
          );
        })}
      </dl>
    </section>
  );
}
