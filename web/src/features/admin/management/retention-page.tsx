import { RETENTION_RULES } from '@schlosstreffen/shared';
import type { RetentionOverview } from '@schlosstreffen/shared/api';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Button } from '../../../components/ui/button';
import { LoadError, Loading } from '../../../components/ui/query-states';
import { Spinner } from '../../../components/ui/spinner';
import { formatDateTime } from '../../../lib/date-format';
import { AdminOnly } from '../admin-layout';
import { retentionQueryOptions } from './retention-queries';

const RUN_COMMAND = 'npm run cli -- retention:run';

const linkClass =
  'text-gold-200 underline decoration-gold-500/30 underline-offset-4 transition-colors hover:text-parchment hover:decoration-gold-300';

/** /admin/datenschutz: the retention periods and the last deletion run (admins only). */
export function AdminRetentionPage() {
  return (
    <AdminOnly>
      <RetentionScreen />
    </AdminOnly>
  );
}

function RetentionScreen() {
  const overview = useQuery(retentionQueryOptions);

  return (
    <section className="flex-1">
      <div className="flex flex-col gap-6 md:flex-row md:items-end md:justify-between">
        <div className="max-w-2xl">
          <p className="text-xs tracking-[0.3em] text-gold-400 uppercase">Adminbereich</p>
          <h1 className="mt-2 font-display text-4xl text-parchment">Datenschutz</h1>
          <p className="mt-3 text-sm text-ash-300">
            Nach diesen Fristen werden personenbezogene Daten automatisch gelöscht; die{' '}
            <Link to="/datenschutz" className={linkClass}>
              Datenschutzerklärung
            </Link>{' '}
            nennt dieselben Fristen. Der Löschlauf läuft im Hintergrund. Sofort starten lässt er sich auf dem
            Server mit <code className="rounded bg-night-800 px-1.5 py-0.5 text-gold-200">{RUN_COMMAND}</code>
            .
          </p>
        </div>
        <Button
          variant="ghost"
          className="self-start border border-white/10 md:self-auto"
          disabled={overview.isFetching}
          onClick={() => void overview.refetch()}
        >
          {overview.isFetching && !overview.isPending ? (
            <>
              <Spinner />
              Lädt...
            </>
          ) : (
            'Aktualisieren'
          )}
        </Button>
      </div>

      <div className="mt-8">
        {overview.isPending ? (
          <Loading label="Speicherfristen werden geladen...">
            <div aria-hidden="true" className="grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
              <div className="h-80 animate-pulse rounded-2xl bg-night-900 motion-reduce:animate-none" />
              <div className="h-56 animate-pulse rounded-2xl bg-night-900 motion-reduce:animate-none" />
            </div>
          </Loading>
        ) : overview.isError ? (
          <LoadError title="Speicherfristen konnten nicht geladen werden" query={overview} />
        ) : (
          <div className="grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)] lg:items-start">
            <Periods periods={overview.data.periods} />
            <LastRun run={overview.data.lastRun} />
          </div>
        )}
      </div>
    </section>
  );
}

const panelClass = 'rounded-2xl border border-white/10 bg-night-900/80 p-5 sm:p-6';

function Periods({ periods }: { periods: RetentionOverview['periods'] }) {
  return (
    <section aria-labelledby="retention-periods" className={panelClass}>
      <h2 id="retention-periods" className="font-display text-2xl text-parchment">
        Speicherfristen
      </h2>
      <table className="mt-4 w-full text-left text-sm">
        <caption className="sr-only">Speicherfristen</caption>
        <thead className="border-b border-white/10 text-xs tracking-wide text-ash-400 uppercase">
          <tr>
            <th scope="col" className="py-2 pr-4 font-semibold">
              Daten
            </th>
            <th scope="col" className="py-2 pr-4 text-right font-semibold">
              Tage
            </th>
            <th scope="col" className="py-2 font-semibold">
              Gezählt ab
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-white/5">
          {periods.map((period) => (
            <tr key={period.rule}>
              <th scope="row" className="py-3 pr-4 font-medium text-parchment">
                {period.label}
              </th>
              <td className="py-3 pr-4 text-right font-display text-lg text-gold-200 tabular-nums">
                {period.days}
              </td>
              <td className="py-3 text-ash-300">{period.description}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** The shared label of a rule key, else the key as the server sent it. */
function ruleLabel(key: string): string {
  return Object.hasOwn(RETENTION_RULES, key)
    ? RETENTION_RULES[key as keyof typeof RETENTION_RULES].label
    : key;
}

function LastRun({ run }: { run: RetentionOverview['lastRun'] }) {
  const removed = run ? Object.entries(run.removed) : [];
  const total = removed.reduce((sum, [, count]) => sum + count, 0);
  return (
    <section aria-labelledby="retention-last-run" className={panelClass}>
      <h2 id="retention-last-run" className="font-display text-2xl text-parchment">
        Letzter Lauf
      </h2>
      {!run ? (
        <p className="mt-4 text-sm text-ash-300">Noch kein Lauf</p>
      ) : (
        <>
          <dl className="mt-4 grid grid-cols-2 gap-x-4 gap-y-3 text-sm">
            <div>
              <dt className="text-xs text-ash-400">Gestartet</dt>
              <dd className="mt-0.5 text-parchment tabular-nums">
                <time dateTime={run.startedAt}>{formatDateTime(run.startedAt)}</time>
              </dd>
            </div>
            <div>
              <dt className="text-xs text-ash-400">Stichtag</dt>
              <dd className="mt-0.5 text-parchment tabular-nums">
                <time dateTime={run.asOf}>{formatDateTime(run.asOf)}</time>
              </dd>
            </div>
          </dl>
          <h3 className="mt-6 text-xs font-semibold tracking-[0.2em] text-gold-400 uppercase">Entfernt</h3>
          {total === 0 ? (
            <p className="mt-2 text-sm text-ash-300">Nichts zu löschen</p>
          ) : (
            <ul aria-label="Entfernt im letzten Lauf" className="mt-2 divide-y divide-white/5 text-sm">
              {removed.map(([key, count]) => (
                <li key={key} className="flex justify-between gap-4 py-2">
                  <span className="text-ash-300">{ruleLabel(key)}</span>
                  <span className="font-semibold text-parchment tabular-nums">{count}</span>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}
