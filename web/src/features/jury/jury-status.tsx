import { Button } from '../../components/ui/button';
import { formatIso } from '../../lib/date-format';
import { OFFLINE_TEXT, type JuryDevice } from './jury-context';

const timeOf = (iso: string | null | undefined) => {
  const time = formatIso(iso, 'time');
  return time === '–' ? null : `${time} Uhr`;
};

export const entriesText = (count: number) => (count === 1 ? '1 Eingabe' : `${count} Eingaben`);

/**
 * What a judge needs to trust the screen: online or not, what still waits on the device, when the
 * server last had everything, and what the server did not take, each with its reason.
 */
export function JuryStatus({ jury }: { jury: JuryDevice }) {
  const model = jury.model;
  const refusedEntries = jury.queue.entries.filter((entry) => entry.state === 'refused');
  const refusedRecusals = jury.queue.recusals.filter((recusal) => recusal.state === 'refused');
  const synced = timeOf(jury.stored?.syncedAt);
  const fetched = timeOf(jury.stored?.fetchedAt);

  return (
    <section
      aria-labelledby="jury-status-heading"
      data-testid="jury-status"
      className="rounded-3xl border border-white/10 bg-night-900/80 p-4 sm:p-5"
    >
      <div className="flex items-center justify-between gap-3">
        <h2 id="jury-status-heading" className="font-display text-lg text-parchment">
          Dieses Gerät
        </h2>
        <span
          data-testid="jury-online"
          className={`rounded-full px-3 py-1 text-xs font-bold tracking-wide uppercase ${
            jury.online ? 'bg-emerald-900/60 text-emerald-100' : 'bg-red-900/70 text-red-100'
          }`}
        >
          {jury.online ? 'Online' : 'Offline'}
        </span>
      </div>
      <dl className="mt-3 grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm">
        <dt className="text-ash-400">Warten auf Versand</dt>
        <dd data-testid="jury-pending" className="text-parchment tabular-nums">
          {entriesText(jury.pending)}
        </dd>
        <dt className="text-ash-400">Abgeglichen</dt>
        <dd data-testid="jury-synced" className="text-parchment">
          {synced ? `zuletzt um ${synced}` : fetched ? `Stand ${fetched}` : 'noch nicht'}
        </dd>
      </dl>
      {!jury.online ? (
        <p role="status" className="mt-3 rounded-xl bg-amber-400/15 px-3 py-2 text-sm text-amber-100">
          {OFFLINE_TEXT}
        </p>
      ) : null}
      {jury.syncError ? (
        <p role="alert" className="mt-3 text-sm text-red-300">
          {jury.syncError}
        </p>
      ) : null}
      {refusedEntries.length + refusedRecusals.length > 0 ? (
        <div className="mt-4">
          <h3 className="text-sm font-bold text-amber-200">Nicht angenommen</h3>
          <ul data-testid="jury-refused" className="mt-2 flex flex-col gap-2">
            {refusedEntries.map((entry) => {
              const criterion = model
                ?.classOf(entry.classId)
                ?.criteria.find((c) => c.id === entry.criterion)?.name;
              return (
                <li key={entry.id} className="rounded-xl bg-amber-400/15 px-3 py-2 text-sm text-amber-100">
                  <span className="font-bold">Startnummer {entry.startNumber}</span>
                  {criterion ? ` · ${criterion}: ${entry.value}` : ` · ${entry.value}`}
                  <span className="block">{entry.message}</span>
                </li>
              );
            })}
            {refusedRecusals.map((recusal) => (
              <li key={recusal.id} className="rounded-xl bg-amber-400/15 px-3 py-2 text-sm text-amber-100">
                <span className="font-bold">Startnummer {recusal.startNumber}</span> · Befangen
                <span className="block">{recusal.message}</span>
              </li>
            ))}
          </ul>
          <Button variant="ghost" className="mt-2 min-h-11" onClick={() => void jury.dismissRefused()}>
            Hinweise ausblenden
          </Button>
        </div>
      ) : null}
    </section>
  );
}
