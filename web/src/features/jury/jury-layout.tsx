import { Outlet } from '@tanstack/react-router';
import { useEffect } from 'react';
import { JuryProvider } from './jury-context';
import { JURY_PAGE_CACHE, JURY_PAGE_PATH } from './jury-page-cache';

/**
 * The frame of the jury's screens: one device state for all of them (its queue and its timers run
 * on while the judge goes from car to car). The service worker keeps the app's code on the device,
 * and the page goes into its cache at once (the worker only sees the next navigation), so the
 * screens open again without network.
 */
export function JuryLayout() {
  useEffect(() => {
    if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
    navigator.serviceWorker
      .register('/sw.js', { scope: '/' })
      .then(() => navigator.serviceWorker.ready)
      .then(() => caches.open(JURY_PAGE_CACHE))
      .then((cache) => cache.add(JURY_PAGE_PATH))
      .catch(() => undefined);
  }, []);

  return (
    <JuryProvider>
      <div className="mx-auto flex w-full max-w-3xl flex-1 flex-col px-4 py-6 sm:px-6 sm:py-10">
        <Outlet />
      </div>
    </JuryProvider>
  );
}
