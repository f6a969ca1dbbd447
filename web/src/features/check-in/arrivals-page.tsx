import { VISITOR_GATE_MESSAGES } from '@schlosstreffen/shared';
import type { ArrivalsBoard } from '@schlosstreffen/shared/api';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { LoadError, Loading } from '../../components/ui/query-states';
import { apiGet } from '../../lib/api';
import { formatCheckInTime } from './check-in-api';
import { ScanLine } from './check-in-recent';

/** Short polling: the board follows the gates within seconds while the day runs. */
const POLL_MS = 5000;

export const arrivalsQueryOptions = queryOptions({
  queryKey: ['admin', 'arrivals'],
  queryFn: () => apiGet<ArrivalsBoard>('/api/admin/arrivals'),
  staleTime: 0,
  refetchInterval: POLL_MS,
  refetchIntervalInBackground: false,
});

const panelClass = 'rounded-3xl border border-white/10 bg-night-900/80 p-5';

function percent(part: number, whole: number): number {
  return whole > 0 ? Math.min(100, Math.round((part / whole) * 100)) : 0;
}

function ZoneBar({ name, expected, arrived }: ArrivalsBoard['zones'][number]) {
  const share = percent(arrived, expected);
  return (
    <li className="flex flex-col gap-1.5">
      <div className="flex items-baseline justify-between gap-3">
        <span className="font-semibold text-parchment">Parkzone {name}</span>
        <span className="text-sm text-ash-300 tabular-nums">
          {arrived} von {expected}
        </span>
      </div>
      <div
        role="progressbar"
        aria-label={`Parkzone ${name}: ${arrived} von ${expected} angekommen`}
        aria-valuemin={0}
        aria-valuemax={expected}
        aria-valuenow={arrived}
        className="h-3 overflow-hidden rounded-full bg-night-800"
      >
        <div className="h-full rounded-full bg-gold-400" style={{ width: `${share}%` }} />
      </div>
    </li>
  );
}

/** Arrivals over time as a small SVG: a bar per quarter hour, a line for the running total. */
function ArrivalsChart({ timeline, expected }: { timeline: ArrivalsBoard['timeline']; expected: number }) {
  if (timeline.length === 0) {
    return <p className="text-sm text-ash-400">Noch keine Ankünfte.</p>;
  }
  // A narrow drawing, so the labels stay legible when it shrinks to a phone's width.
  const width = 480;
  const height = 220;
  const pad = { left: 40, right: 12, top: 14, bottom: 32 };
  const innerW = width - pad.left - pad.right;
  const innerH = height - pad.top - pad.bottom;
  const maxTotal = Math.max(expected, timeline[timeline.length - 1]!.total, 1);
  // At least eight quarter hours wide, so the first arrivals of the day do not fill the chart.
  const slot = innerW / Math.max(timeline.length, 8);
  const barWidth = Math.min(slot * 0.7, 40);
  const y = (value: number) => pad.top + innerH - (value / maxTotal) * innerH;
  const line = timeline
    .map((point, index) => `${index === 0 ? 'M' : 'L'}${pad.left + slot * (index + 0.5)},${y(point.total)}`)
    .join(' ');
  const labelEvery = Math.max(1, Math.ceil(timeline.length / 6));
  return (
    <figure>
      <svg
        viewBox={`0 0 ${width} ${height}`}
        role="img"
        aria-label={`Ankünfte je Viertelstunde, zusammen ${timeline[timeline.length - 1]!.total}`}
        className="h-auto w-full"
      >
        {[...new Set([0, Math.round(maxTotal / 2), maxTotal])].map((tick) => (
          <g key={tick}>
            <line
              x1={pad.left}
              x2={width - pad.right}
              y1={y(tick)}
              y2={y(tick)}
              className="stroke-white/10"
            />
            <text x={pad.left - 6} y={y(tick) + 4} textAnchor="end" className="fill-ash-400 text-[13px]">
              {tick}
            </text>
          </g>
        ))}
        {timeline.map((point, index) => (
          <g key={point.at} data-testid="arrivals-bucket" data-at={point.at} data-arrived={point.arrived}>
            <rect
              x={pad.left + slot * (index + 0.5) - barWidth / 2}
              width={barWidth}
              y={y(point.arrived)}
              height={pad.top + innerH - y(point.arrived)}
              rx={3}
              className="fill-gold-500/40"
            >
              <title>{`${formatCheckInTime(point.at)} Uhr: ${point.arrived} angekommen, zusammen ${point.total}`}</title>
            </rect>
            {index % labelEvery === 0 ? (
              <text
                x={pad.left + slot * (index + 0.5)}
                y={height - 8}
                textAnchor="middle"
                className="fill-ash-400 text-[13px]"
              >
                {formatCheckInTime(point.at)}
              </text>
            ) : null}
          </g>
        ))}
        <path d={line} fill="none" strokeWidth={2.5} className="stroke-gold-300" />
        {timeline.map((point, index) => (
          <circle
            key={point.at}
            cx={pad.left + slot * (index + 0.5)}
            cy={y(point.total)}
            r={4}
            className="fill-gold-300"
          />
        ))}
      </svg>
      <figcaption className="mt-2 text-xs text-ash-400">
        Balken: Ankünfte je Viertelstunde · Linie: angekommen insgesamt
      </figcaption>
    </figure>
  );
}

const count = (value: number) => value.toLocaleString('de-DE');

/**
 * 'Besucher': let in (tickets and the day's till) and on the grounds now against the capacity, with
 * the warning from 90 % on (the server says when), red once full.
 */
function VisitorsPanel({ visitors }: { visitors: NonNullable<ArrivalsBoard['visitors']> }) {
  const { capacity, admitted, walkIns, onGrounds, warning, exitScanning } = visitors;
  const share = capacity ? Math.floor((onGrounds / capacity) * 100) : 0;
  const full = capacity !== null && onGrounds >= capacity;
  return (
    <section aria-labelledby="arrivals-visitors-heading" className={panelClass}>
      <h2 id="arrivals-visitors-heading" className="font-display text-xl text-parchment">
        Besucher
      </h2>
      {warning && capacity ? (
        <p
          role="alert"
          data-testid="visitors-warning"
          className={`mt-3 rounded-2xl px-4 py-3 text-lg font-bold ${
            full ? 'bg-red-700 text-white' : 'bg-amber-400 text-night-950'
          }`}
        >
          {VISITOR_GATE_MESSAGES.capacityWarning(share)}
        </p>
      ) : null}
      <dl className="mt-3 grid gap-4 sm:grid-cols-2">
        <div>
          <dt className="text-xs font-bold tracking-[0.18em] text-ash-400 uppercase">Besucher eingelassen</dt>
          <dd data-testid="visitors-admitted" className="font-display text-4xl text-parchment tabular-nums">
            {count(admitted)}
          </dd>
          <dd data-testid="visitors-walk-ins" className="text-sm text-ash-300">
            {count(walkIns)} davon Tageskasse
          </dd>
        </div>
        <div>
          <dt className="text-xs font-bold tracking-[0.18em] text-ash-400 uppercase">
            Jetzt auf dem Gelände
          </dt>
          <dd data-testid="visitors-on-grounds" className="font-display text-4xl text-parchment tabular-nums">
            {count(onGrounds)}
            {capacity ? <span className="text-2xl text-ash-300"> von {count(capacity)}</span> : null}
          </dd>
          {exitScanning ? null : (
            <dd className="text-sm text-ash-300">
              Ohne Ausgangsscan zählt jeder Eingelassene bis zum Schluss als auf dem Gelände.
            </dd>
          )}
        </div>
      </dl>
      {capacity ? (
        <div
          role="progressbar"
          aria-label={`Besucher auf dem Gelände: ${count(onGrounds)} von ${count(capacity)}`}
          aria-valuemin={0}
          aria-valuemax={capacity}
          aria-valuenow={onGrounds}
          className="mt-4 h-4 overflow-hidden rounded-full bg-night-800"
        >
          <div
            className={`h-full rounded-full ${full ? 'bg-red-500' : warning ? 'bg-amber-400' : 'bg-emerald-500'}`}
            style={{ width: `${Math.min(100, share)}%` }}
          />
        </div>
      ) : null}
    </section>
  );
}

/**
 * The 'Einlass' board for the event day: arrived against expected (confirmed cars), per zone, over
 * time, the visitors where the edition counts them, and the last scans with their gate; it follows
 * the gates every few seconds.
 */
export function AdminArrivalsPage() {
  const query = useQuery(arrivalsQueryOptions);

  return (
    <section className="flex flex-col gap-5">
      <header>
        <h1 className="font-display text-3xl text-parchment sm:text-4xl">Einlass</h1>
        <p className="mt-1 text-sm text-ash-300 sm:text-base">
          Angekommene Fahrzeuge je Parkzone und über die Zeit; aktualisiert sich alle paar Sekunden.
        </p>
      </header>
      {query.isPending ? (
        <Loading label="Einlass wird geladen...">
          <div aria-hidden="true" className={`${panelClass} h-64 animate-pulse motion-reduce:animate-none`} />
        </Loading>
      ) : query.isError ? (
        <LoadError title="Der Einlass konnte nicht geladen werden" query={query} />
      ) : (
        <Board board={query.data} stale={query.isRefetchError} />
      )}
    </section>
  );
}

function Board({ board, stale }: { board: ArrivalsBoard; stale: boolean }) {
  return (
    <>
      <div className="grid gap-5 lg:grid-cols-[20rem_minmax(0,1fr)]">
        <div className={`${panelClass} flex flex-col gap-5`}>
          <div>
            <p className="text-xs font-bold tracking-[0.18em] text-ash-400 uppercase">Angekommen</p>
            <p data-testid="arrivals-total" className="font-display text-5xl text-parchment tabular-nums">
              {board.arrived}
              <span className="text-2xl text-ash-300"> / {board.expected}</span>
            </p>
            <p className="text-sm text-ash-300">
              Stand {formatCheckInTime(board.updatedAt)} Uhr
              {stale ? ' · Verbindung unterbrochen, zeigt den letzten Stand' : ''}
            </p>
          </div>
          <ul aria-label="Parkzonen" className="flex flex-col gap-4">
            {board.zones.map((zone) => (
              <ZoneBar key={zone.name} {...zone} />
            ))}
          </ul>
        </div>
        <div className={panelClass}>
          <h2 className="mb-3 font-display text-xl text-parchment">Ankünfte über die Zeit</h2>
          <ArrivalsChart timeline={board.timeline} expected={board.expected} />
        </div>
      </div>
      {board.visitors ? <VisitorsPanel visitors={board.visitors} /> : null}
      <div className={panelClass}>
        <h2 className="font-display text-xl text-parchment">Letzte Scans</h2>
        {board.recent.length === 0 ? (
          <p className="mt-3 text-sm text-ash-400">Noch keine Scans.</p>
        ) : (
          <ol aria-label="Letzte Scans" className="mt-3 divide-y divide-white/10">
            {board.recent.map((scan) => (
              <ScanLine
                key={`${scan.startNumber}-${scan.scannedAt}-${scan.gate}`}
                at={scan.scannedAt}
                startNumber={scan.startNumber}
                title={scan.name}
                detail={`Parkzone ${scan.zone} · ${scan.gate}`}
                admitted={scan.result === 'admitted'}
              >
                {scan.result === 'duplicate' ? (
                  <span className="rounded-full bg-amber-400/20 px-2 py-0.5 text-xs font-bold text-amber-200">
                    Doppelt
                  </span>
                ) : null}
              </ScanLine>
            ))}
          </ol>
        )}
      </div>
    </>
  );
}
