import { sitePhaseAt, type EditionPhase, type SiteConfig } from '@schlosstreffen/shared';
import { useEffect, useState } from 'react';
import { getSiteConfig } from './site-config';

/**
 * The app's clock in the browser: the server's moment when it wrote the page (the site config's
 * `now`) plus the time since the page was opened, run on by the device's clock. Phases and the
 * countdown follow it, so a device whose clock is off, or an app whose clock is set (APP_CLOCK),
 * shows the app's moment. Without that moment (dev server, tests without it) the device's clock.
 */
const offsets = new WeakMap<SiteConfig, number>();

/** The moment the page was written: what a page's first render shows, on the server and in the browser alike. */
export function renderedAt(): number {
  const { now } = getSiteConfig();
  return now ? Date.parse(now) : Date.now();
}

/** The app's moment now (ms). On the server: the moment of the page it renders. */
export function appNow(): number {
  if (typeof document === 'undefined') return renderedAt();
  const config = getSiteConfig();
  let offset = offsets.get(config);
  if (offset === undefined) {
    // The page was opened `performance.now()` ago, about when the server wrote it.
    offset = config.now ? renderedAt() + performance.now() - Date.now() : 0;
    offsets.set(config, offset);
  }
  return Date.now() + offset;
}

/** Whether the app has rendered a page already: later renders start from the running clock. */
let started = false;

/** The moment a component's first render shows: the page's while the page's first render runs. */
const firstRenderMoment = () => (started ? appNow() : renderedAt());

/** A new page (tests): its first render shows the moment it was written again. */
export function resetAppClock(): void {
  started = false;
}

/**
 * The app's moment for a component, updated every `everyMs` until `until` (ms) has passed. The
 * page's first render shows the moment the page was written, so hydration finds the server's
 * markup; the running clock follows at once.
 */
export function useAppNow(everyMs: number, until = Infinity): number {
  const [now, setNow] = useState(firstRenderMoment);
  const done = now >= until;
  useEffect(() => {
    started = true;
    setNow(appNow());
    if (done) return undefined;
    const timer = window.setInterval(() => setNow(appNow()), everyMs);
    return () => window.clearInterval(timer);
  }, [everyMs, done]);
  return now;
}

/** How often a page that stays open looks again at the current edition's phase. */
const PHASE_CHECK_MS = 60_000;

/** The current edition's phase by the app's clock, following it while the page stays open. */
export function useSitePhase(): EditionPhase {
  const config = getSiteConfig();
  const [phase, setPhase] = useState(() => sitePhaseAt(config, new Date(firstRenderMoment())));
  useEffect(() => {
    started = true;
    const update = () => setPhase(sitePhaseAt(config, new Date(appNow())));
    update();
    const timer = window.setInterval(update, PHASE_CHECK_MS);
    return () => window.clearInterval(timer);
  }, [config]);
  return phase;
}
