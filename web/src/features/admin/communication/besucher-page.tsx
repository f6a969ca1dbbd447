import { VISITOR_STATE_LABELS } from '@schlosstreffen/shared';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useId, useState } from 'react';
import { Button, buttonClass } from '../../../components/ui/button';
import { inputClass } from '../../../components/ui/form-field';
import { LoadError, Loading } from '../../../components/ui/query-states';
import { Spinner } from '../../../components/ui/spinner';
import { formatIso } from '../../../lib/date-format';
import { DownloadIcon } from '../admin-icons';
import { AdminOnly } from '../admin-layout';
import { filterVisitors, visitorName } from './visitors-format';
import type { AdminVisitor, AdminVisitorList, VisitorState } from '@schlosstreffen/shared/api';
import { adminVisitorsQueryOptions, VISITOR_STATES, VISITORS_CSV_URL } from './visitors-queries';
import { withEdition } from '../../../lib/admin-edition';

const STATE_TONES: Record<VisitorState, string> = {
  confirmed: 'border-emerald-400/40 bg-emerald-500/10 text-emerald-200',
  pending: 'border-gold-500/40 bg-gold-500/10 text-gold-200',
  unsubscribed: 'border-white/15 bg-white/5 text-ash-300',
};

const linkClass =
  'text-gold-200 underline decoration-gold-500/30 underline-offset-4 transition-colors hover:text-parchment hover:decoration-gold-300 break-all';

/** /admin/besucher: visitor pre-registrations with their confirmation state (admins only). */
export function AdminBesucherPage() {
  return (
    <AdminOnly>
      <VisitorsScreen />
    </AdminOnly>
  );
}

function VisitorsScreen() {
  const list = useQuery(adminVisitorsQueryOptions);

  return (
    <section className="flex-1">
      <div className="flex flex-col gap-6 md:flex-row md:items-end md:justify-between">
        <div className="max-w-2xl">
          <p className="text-xs tracking-[0.3em] text-gold-400 uppercase">Adminbereich</p>
          <h1 className="mt-2 font-display text-4xl text-parchment">Besucher</h1>
          <p className="mt-3 text-sm text-ash-300">
            Voranmeldungen über „Als Besucher vormerken“. Event-Updates erhalten nur Besucher, die ihre
            E-Mail-Adresse über den Link in der Bestätigungsmail bestätigt haben.
          </p>
        </div>
        <div className="flex flex-col-reverse gap-3 sm:flex-row">
          <Button
            variant="ghost"
            className="border border-white/10"
            disabled={list.isFetching}
            onClick={() => void list.refetch()}
          >
            {list.isFetching && !list.isPending ? (
              <>
                <Spinner />
                Lädt...
              </>
            ) : (
              'Aktualisieren'
            )}
          </Button>
          {/* A plain download: the server sends the file as an attachment. */}
          <a href={withEdition(VISITORS_CSV_URL)} download className={buttonClass('primary')}>
            <DownloadIcon className="size-4" />
            CSV herunterladen
          </a>
        </div>
      </div>

      <div className="mt-8">
        {list.isPending ? (
          <Loading label="Besucher werden geladen...">
            <div aria-hidden="true" className="grid grid-cols-2 gap-3 md:grid-cols-4">
              <SkeletonBars className="h-20" />
            </div>
            <div aria-hidden="true" className="mt-8 flex flex-col gap-3">
              <SkeletonBars className="h-14" />
            </div>
          </Loading>
        ) : list.isError ? (
          <LoadError title="Besucher konnten nicht geladen werden" query={list} />
        ) : (
          <VisitorList data={list.data} />
        )}
      </div>
    </section>
  );
}

/** Four pulsing blocks of the given height: the count tiles or the rows while the list loads. */
function SkeletonBars({ className }: { className: string }) {
  return (
    <>
      {[0, 1, 2, 3].map((index) => (
        <div
          key={index}
          className={`animate-pulse rounded-xl bg-night-900 motion-reduce:animate-none ${className}`}
        />
      ))}
    </>
  );
}

function VisitorList({ data }: { data: AdminVisitorList }) {
  const [query, setQuery] = useState('');
  const searchId = useId();
  const summaryId = useId();
  const shown = filterVisitors(data.visitors, query);
  const total = data.visitors.length;

  return (
    <>
      <dl className="grid grid-cols-2 gap-3 md:grid-cols-4">
        <CountTile label="Gesamt" value={data.counts.total} />
        {VISITOR_STATES.map((state) => (
          <CountTile
            key={state}
            label={VISITOR_STATE_LABELS[state]}
            value={data.counts[state]}
            state={state}
          />
        ))}
      </dl>

      {total === 0 ? (
        <div className="mt-8 flex flex-col items-center rounded-2xl border border-dashed border-gold-500/30 bg-night-900/60 px-6 py-14 text-center">
          <svg
            aria-hidden="true"
            viewBox="0 0 48 48"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinecap="round"
            className="size-12 text-gold-400"
          >
            <circle cx="18" cy="17" r="7" />
            <path d="M5 40c1.5-7 6.5-11 13-11s11.5 4 13 11" />
            <circle cx="34" cy="15" r="5.5" />
            <path d="M33 25c5 0 9 3.5 10 10" />
          </svg>
          <h2 className="mt-5 font-display text-2xl text-parchment">Noch keine Besucher vorgemerkt</h2>
          <p className="mt-2 max-w-sm text-sm text-ash-300">
            Sobald sich jemand über die Besuchervoranmeldung einträgt, erscheint die Person hier.
          </p>
          <Link to="/visitor-registration" className={buttonClass('secondary', 'mt-6')}>
            Zur Besuchervoranmeldung
          </Link>
        </div>
      ) : (
        <>
          <div className="mt-8 flex flex-col gap-2 sm:max-w-md">
            <label htmlFor={searchId} className="text-sm font-medium text-ash-300">
              Suche nach Name oder E-Mail
            </label>
            <input
              id={searchId}
              type="search"
              value={query}
              onChange={(event) => setQuery(event.target.value)}
              aria-describedby={summaryId}
              autoComplete="off"
              spellCheck={false}
              className={inputClass}
            />
          </div>
          <p id={summaryId} role="status" className="mt-3 text-sm text-ash-400">
            {shown.length === total ? `${total} Besucher` : `${shown.length} von ${total} Besuchern`}
          </p>

          {shown.length === 0 ? (
            <div className="mt-4 rounded-2xl border border-dashed border-white/15 bg-night-900/60 px-6 py-12 text-center">
              <h2 className="font-display text-xl text-parchment">Keine Besucher gefunden</h2>
              <p className="mt-2 text-sm text-ash-300">Versuchen Sie einen anderen Suchbegriff</p>
            </div>
          ) : (
            <>
              <VisitorTable visitors={shown} />
              <VisitorCards visitors={shown} />
            </>
          )}
        </>
      )}
    </>
  );
}

function CountTile({ label, value, state }: { label: string; value: number; state?: VisitorState }) {
  return (
    <div className="flex flex-col-reverse rounded-xl border border-white/10 bg-night-900/80 px-4 py-3">
      <dt className="mt-1 flex items-center gap-2 text-sm text-ash-300">
        {state ? (
          <span aria-hidden="true" className={`size-2 rounded-full border ${STATE_TONES[state]}`} />
        ) : null}
        {label}
      </dt>
      <dd className="font-display text-3xl text-parchment tabular-nums">{value}</dd>
    </div>
  );
}

function StateBadge({ state }: { state: VisitorState }) {
  return (
    <span
      className={`inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ${STATE_TONES[state]}`}
    >
      {VISITOR_STATE_LABELS[state]}
    </span>
  );
}

function Phone({ phone }: { phone: string | null }) {
  const value = phone?.trim();
  if (!value) return <span className="text-ash-400">Nicht angegeben</span>;
  return (
    <a href={`tel:${value.replace(/[^\d+]/g, '')}`} className={linkClass}>
      {value}
    </a>
  );
}

/** Wide screens: one row per visitor. */
function VisitorTable({ visitors }: { visitors: AdminVisitor[] }) {
  return (
    <div className="mt-4 hidden overflow-hidden rounded-2xl border border-white/10 bg-night-900/80 md:block">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Besuchervoranmeldungen</caption>
        <thead className="border-b border-white/10 bg-night-800/60 text-xs tracking-wide text-ash-300 uppercase">
          <tr>
            <th scope="col" className="px-5 py-3 font-semibold">
              Name
            </th>
            <th scope="col" className="px-5 py-3 font-semibold">
              E-Mail
            </th>
            <th scope="col" className="px-5 py-3 font-semibold">
              Telefon
            </th>
            <th scope="col" className="px-5 py-3 font-semibold">
              Status
            </th>
            <th scope="col" className="px-5 py-3 font-semibold">
              Vorgemerkt am
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-white/5">
          {visitors.map((visitor) => (
            <tr key={visitor.id} className="transition-colors hover:bg-white/[0.03]">
              <th scope="row" className="px-5 py-3.5 font-medium text-parchment">
                {visitorName(visitor)}
              </th>
              <td className="px-5 py-3.5">
                <a href={`mailto:${visitor.email}`} className={linkClass}>
                  {visitor.email}
                </a>
              </td>
              <td className="px-5 py-3.5 whitespace-nowrap">
                <Phone phone={visitor.phone} />
              </td>
              <td className="px-5 py-3.5">
                <StateBadge state={visitor.state} />
              </td>
              <td className="px-5 py-3.5 whitespace-nowrap text-ash-300 tabular-nums">
                {formatIso(visitor.createdAt, 'dateTime')}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Phones: one card per visitor. */
function VisitorCards({ visitors }: { visitors: AdminVisitor[] }) {
  return (
    <ul aria-label="Besuchervoranmeldungen" className="mt-4 flex flex-col gap-3 md:hidden">
      {visitors.map((visitor) => (
        <li key={visitor.id} className="rounded-xl border border-white/10 bg-night-900/80 p-4">
          <div className="flex items-start justify-between gap-3">
            <h2 className="min-w-0 font-medium break-words text-parchment">{visitorName(visitor)}</h2>
            <StateBadge state={visitor.state} />
          </div>
          <p className="mt-1 text-sm">
            <a href={`mailto:${visitor.email}`} className={linkClass}>
              {visitor.email}
            </a>
          </p>
          <dl className="mt-3 grid grid-cols-2 gap-x-4 text-sm">
            <div className="min-w-0">
              <dt className="text-xs text-ash-400">Telefon</dt>
              <dd className="mt-0.5">
                <Phone phone={visitor.phone} />
              </dd>
            </div>
            <div className="min-w-0">
              <dt className="text-xs text-ash-400">Vorgemerkt am</dt>
              <dd className="mt-0.5 text-ash-300 tabular-nums">{formatIso(visitor.createdAt, 'dateTime')}</dd>
            </div>
          </dl>
        </li>
      ))}
    </ul>
  );
}
