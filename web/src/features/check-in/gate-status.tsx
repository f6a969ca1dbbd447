import { useEffect, useState } from 'react';
import { GateNameSchema } from '@schlosstreffen/shared';
import * as v from 'valibot';
import { Button } from '../../components/ui/button';
import { formatCheckInTime } from './check-in-api';
import type { QueuedScan, QueuedVisitorScan } from './gate-store';
import type { useGate } from './use-gate';

/**
 * What the gate needs to trust its screen: online or not, how old its list is, how many scans still
 * wait for the server, the gate's name, the scans another gate had been first with, and the scans
 * the server refused, each with its reason.
 */
export function GateStatus({ gate }: { gate: ReturnType<typeof useGate> }) {
  const [name, setName] = useState(gate.device?.gate ?? '');
  const [nameError, setNameError] = useState<string | null>(null);
  useEffect(() => {
    if (gate.device) setName(gate.device.gate);
  }, [gate.device]);
  const duplicates = gate.scans.filter((scan) => scan.state === 'duplicate');
  const refused = gate.scans.filter((scan) => scan.state === 'refused');
  const refusedVisitors = gate.visitorScans.filter((scan) => scan.state === 'refused');

  return (
    <section
      aria-labelledby="gate-status-heading"
      data-testid="gate-status"
      className="rounded-3xl border border-white/10 bg-night-900/80 p-5"
    >
      <div className="flex items-center justify-between gap-3">
        <h2 id="gate-status-heading" className="font-display text-xl text-parchment">
          Dieser Einlass
        </h2>
        <span
          data-testid="gate-online"
          className={`rounded-full px-3 py-1 text-xs font-bold tracking-wide uppercase ${
            gate.online ? 'bg-emerald-900/60 text-emerald-100' : 'bg-red-900/70 text-red-100'
          }`}
        >
          {gate.online ? 'Online' : 'Offline'}
        </span>
      </div>
      <dl className="mt-3 grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm">
        <dt className="text-ash-400">Einlassliste</dt>
        <dd data-testid="gate-list" className="text-parchment">
          {gate.meta
            ? `${gate.meta.count} Fahrzeuge, Stand ${formatCheckInTime(gate.meta.fetchedAt)} Uhr`
            : 'Nicht auf diesem Gerät'}
        </dd>
        {gate.meta?.tickets ? (
          <>
            <dt className="text-ash-400">Besucher</dt>
            <dd data-testid="gate-tickets" className="text-parchment">
              {gate.meta.tickets.count === 1
                ? '1 Besucherticket'
                : `${gate.meta.tickets.count} Besuchertickets`}
              {gate.meta.tickets.exitScanning ? ' · Ausgang wird gescannt' : ''}
            </dd>
          </>
        ) : null}
        <dt className="text-ash-400">Warten auf Versand</dt>
        <dd data-testid="gate-pending" className="text-parchment tabular-nums">
          {gate.pending === 1 ? '1 Scan' : `${gate.pending} Scans`}
        </dd>
        {gate.meta?.tickets || gate.pendingVisitors > 0 ? (
          <>
            <dt className="text-ash-400">Besucher-Scans</dt>
            <dd data-testid="gate-pending-visitors" className="text-parchment tabular-nums">
              {gate.pendingVisitors === 1 ? '1 wartet' : `${gate.pendingVisitors} warten`}
            </dd>
          </>
        ) : null}
      </dl>
      {gate.listError ? (
        <p role="status" className="mt-2 text-sm text-amber-200">
          {gate.listError}
          {gate.meta ? ' Die Liste vom letzten Stand gilt weiter.' : ' Check-in nur mit Verbindung.'}
        </p>
      ) : null}
      {gate.device ? (
        <form
          className="mt-4 flex items-end gap-2"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            const parsed = v.safeParse(GateNameSchema, name);
            if (!parsed.success) return setNameError(parsed.issues[0].message);
            setNameError(null);
            void gate.rename(parsed.output);
          }}
        >
          <label className="flex min-w-0 flex-1 flex-col gap-1 text-sm text-ash-300">
            Name dieses Einlasses
            <input
              value={name}
              maxLength={60}
              aria-invalid={nameError ? true : undefined}
              aria-describedby={nameError ? 'gate-name-error' : undefined}
              onChange={(event) => setName(event.target.value)}
              className="min-h-11 w-full min-w-0 rounded-xl border border-white/15 bg-night-950 px-3 text-base text-parchment"
            />
          </label>
          <Button type="submit" variant="secondary" className="min-h-11">
            Speichern
          </Button>
        </form>
      ) : null}
      {nameError ? (
        <p id="gate-name-error" role="alert" className="mt-1 text-sm text-red-300">
          {nameError}
        </p>
      ) : null}
      <ScanNotices heading="Doppelte Scans" testId="gate-conflicts" scans={duplicates} />
      <ScanNotices heading="Abgelehnte Scans" testId="gate-refused" scans={refused} />
      <VisitorScanNotices scans={refusedVisitors} />
    </section>
  );
}

/** Scans the server did not let in as this gate did, each with the server's words. */
function ScanNotices({ heading, testId, scans }: { heading: string; testId: string; scans: QueuedScan[] }) {
  if (scans.length === 0) return null;
  return (
    <div className="mt-4">
      <h3 className="text-sm font-bold text-amber-200">{heading}</h3>
      <ul data-testid={testId} className="mt-2 flex flex-col gap-2">
        {scans.map((scan) => (
          <li key={scan.id} className="rounded-xl bg-amber-400/15 px-3 py-2 text-sm text-amber-100">
            <span className="font-bold">Startnummer {scan.startNumber}</span> · {scan.name}
            <span className="block">{scan.message}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

const VISITOR_SCAN_KIND: Record<QueuedVisitorScan['kind'], string> = {
  in: 'Besucherticket, Eingang',
  out: 'Besucherticket, Ausgang',
  walk_in: 'Tageskasse',
};

/** Visitor scans the server refused (not counted), each with the server's words. */
function VisitorScanNotices({ scans }: { scans: QueuedVisitorScan[] }) {
  if (scans.length === 0) return null;
  return (
    <div className="mt-4">
      <h3 className="text-sm font-bold text-amber-200">Abgelehnte Besucher-Scans</h3>
      <ul data-testid="gate-refused-visitors" className="mt-2 flex flex-col gap-2">
        {scans.map((scan) => (
          <li key={scan.id} className="rounded-xl bg-amber-400/15 px-3 py-2 text-sm text-amber-100">
            <span className="font-bold">{VISITOR_SCAN_KIND[scan.kind]}</span> ·{' '}
            {formatCheckInTime(scan.scannedAt)} Uhr
            <span className="block">{scan.message}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
