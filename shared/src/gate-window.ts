import { venueClock, venueInstant } from './venue-time.js';

/** Scans one sync request carries at most: the server's limit and the size of the device's chunks. */
export const GATE_SYNC_MAX_SCANS = 500;

/** A device's clock may be this far off: the gate window is this much wider on either side. */
export const GATE_CLOCK_TOLERANCE_MS = 15 * 60 * 1000;

/** When cars are checked in: scans dated outside (tolerance aside) are refused. */
export interface GateWindow {
  opensAt: Date;
  closesAt: Date;
}

/** 00:00 at the venue on the day the instant falls on there. */
export function venueMidnight(date: Date): Date {
  return venueInstant({ ...venueClock(date), hour: 0, minute: 0, second: 0 });
}

/** Whether a scan at this moment is taken: within the window, widened by the tolerance either side. */
export function withinGateWindow(window: GateWindow, at: Date): boolean {
  const time = at.getTime();
  return (
    time >= window.opensAt.getTime() - GATE_CLOCK_TOLERANCE_MS &&
    time <= window.closesAt.getTime() + GATE_CLOCK_TOLERANCE_MS
  );
}

/** Splits a list into chunks of at most `size` items, in order. */
export function chunked<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let start = 0; start < items.length; start += size) chunks.push(items.slice(start, start + size));
  return chunks;
}
