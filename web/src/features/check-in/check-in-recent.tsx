import { useCallback, useState, type ReactNode } from 'react';
import type { CheckInView } from '@schlosstreffen/shared/api';
import { formatCheckInTime } from './check-in-api';

interface RecentCheckIn {
  startNumber: number;
  parkingZone: string;
  title: string;
  /** ISO time of the check-in. */
  at: string;
}

const RECENT_LIMIT = 5;
const STORAGE_KEY = 'schlosstreffen.check-in.recent';

function load(): RecentCheckIn[] {
  try {
    const parsed: unknown = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '[]');
    return Array.isArray(parsed) ? (parsed as RecentCheckIn[]).slice(0, RECENT_LIMIT) : [];
  } catch {
    return [];
  }
}

/** The last check-ins of this browser session (kept across reloads of the tab), newest first. */
export function useRecentCheckIns() {
  const [items, setItems] = useState<RecentCheckIn[]>(load);
  const add = useCallback((view: CheckInView) => {
    setItems((current) => {
      const entry: RecentCheckIn = {
        startNumber: view.startNumber,
        parkingZone: view.parkingZone,
        title: view.vehicle.title,
        at: view.checkedInAt ?? new Date().toISOString(),
      };
      const next = [entry, ...current.filter((item) => item.startNumber !== entry.startNumber)].slice(
        0,
        RECENT_LIMIT,
      );
      try {
        sessionStorage.setItem(STORAGE_KEY, JSON.stringify(next));
      } catch {
        // Private mode without storage: the list lives as long as the page.
      }
      return next;
    });
  }, []);
  return { items, add };
}

/** A check-in's key in the device's queue: its start number and the time it was scanned. */
export const scanKey = (startNumber: number, at: string) => `${startNumber}@${at}`;

/**
 * The last check-ins; one the server refused afterwards (keys in `refused`, e.g. dated outside the
 * gate window) is marked so, not shown as let in.
 */
export function RecentCheckIns({
  items,
  refused = new Set(),
}: {
  items: RecentCheckIn[];
  refused?: ReadonlySet<string>;
}) {
  return (
    <section
      aria-labelledby="check-in-recent-heading"
      className="rounded-3xl border border-white/10 bg-night-900/80 p-5"
    >
      <h2 id="check-in-recent-heading" className="font-display text-xl text-parchment">
        Zuletzt eingecheckt
      </h2>
      {items.length === 0 ? (
        <p className="mt-3 text-sm text-ash-400">Noch keine Check-ins in dieser Sitzung.</p>
      ) : (
        <ol className="mt-3 divide-y divide-white/10">
          {items.map((item) => {
            const wasRefused = refused.has(scanKey(item.startNumber, item.at));
            return (
              <ScanLine
                key={`${item.startNumber}-${item.at}`}
                at={item.at}
                startNumber={item.startNumber}
                title={item.title}
                detail={`Parkzone ${item.parkingZone}`}
                admitted={!wasRefused}
              >
                {wasRefused ? (
                  <span className="shrink-0 rounded-full bg-amber-400/15 px-2 py-0.5 text-xs font-bold text-amber-100">
                    Abgelehnt
                  </span>
                ) : null}
              </ScanLine>
            );
          })}
        </ol>
      )}
    </section>
  );
}

/** One car in a list of scans: the time, its start number, its name and a line of detail. */
export function ScanLine({
  at,
  startNumber,
  title,
  detail,
  admitted = false,
  children,
}: {
  at: string;
  startNumber: number;
  title: string;
  detail: string;
  /** Let in by this scan: the start number shows green. */
  admitted?: boolean;
  /** A badge at the end of the line. */
  children?: ReactNode;
}) {
  return (
    <li className="flex items-center gap-3 py-3">
      <time dateTime={at} className="w-12 shrink-0 text-sm text-ash-400 tabular-nums">
        {formatCheckInTime(at)}
      </time>
      <span
        className={`min-w-12 shrink-0 rounded-lg px-2 py-1 text-center text-lg font-black tabular-nums ${
          admitted ? 'bg-emerald-900/60 text-emerald-100' : 'bg-night-800 text-parchment'
        }`}
      >
        <span className="sr-only">Startnummer </span>
        {startNumber}
      </span>
      <span className="min-w-0 flex-1">
        <span className="block truncate font-medium text-parchment">{title}</span>
        <span className="block text-xs text-ash-400">{detail}</span>
      </span>
      {children}
    </li>
  );
}
