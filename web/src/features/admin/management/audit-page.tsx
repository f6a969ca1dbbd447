import {
  AUDIT_ACTIONS,
  AUDIT_MESSAGES,
  PRIVACY_MESSAGES,
  STATUS_LABELS,
  type VehicleStatus,
  type AuditAction,
  type AuditEntry,
  type AuditPage,
} from '@schlosstreffen/shared';
import { useInfiniteQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { useId, useMemo } from 'react';
import { Button } from '../../../components/ui/button';
import { inputClass } from '../../../components/ui/form-field';
import { EmptyState, LoadError, Loading } from '../../../components/ui/query-states';
import { SelectField } from '../../../components/ui/select';
import { Spinner } from '../../../components/ui/spinner';
import { formatDateTime } from '../../../lib/date-format';
import { NoMatchIcon } from '../admin-icons';
import { AdminOnly } from '../admin-layout';
import { auditQueryOptions } from './audit-queries';
import { filtersOf, parseAuditSearch, type AuditFilters } from './audit-search';

const route = getRouteApi('/admin/protokoll');
const M = AUDIT_MESSAGES;

const ROLE_LABELS: Readonly<Record<AuditEntry['actorRole'], string>> = {
  admin: 'Admin',
  reviewer: 'Prüfer',
  user: 'Bewerber',
  system: 'System',
};

const ACTION_OPTIONS = (Object.keys(AUDIT_ACTIONS) as AuditAction[])
  .map((action) => ({ value: action, label: AUDIT_ACTIONS[action] }))
  .sort((a, b) => a.label.localeCompare(b.label, 'de'));

/** The details the server records, in words; anything else as sent. */
const DETAIL_LABELS: Readonly<Record<string, string>> = {
  rows: 'Einträge',
  recipients: 'Empfänger',
  status: 'Status',
  search: 'Suche',
  state: 'Zustand',
  job: 'Auftrag',
  mail: 'E-Mail',
  autoMoveUp: 'Automatisch',
  fields: 'Felder',
  at: 'Zeitpunkt',
  from: 'vorher',
  to: 'nachher',
  set: 'Satz',
  version: 'Version',
  action: 'Aktion',
  since: 'ab',
  until: 'bis',
  reviewersPerApplication: 'Prüfer je Bewerbung',
  categories: 'Kategorien',
  secondFactor: 'Zweiter Faktor',
  wasSetUp: 'war eingerichtet',
};
const DETAIL_ORDER = Object.keys(DETAIL_LABELS);
/** How a sign-in's second factor was given. */
const SECOND_FACTOR_WAYS: Readonly<Record<string, string>> = {
  setup: 'neu eingerichtet',
  code: 'Code',
  recovery_code: 'Wiederherstellungscode',
  off: 'nicht verlangt',
};
/** Details the page leaves out (a person's id, a page marker). */
const HIDDEN_DETAILS = new Set(['person', 'page']);

function detailValue(key: string, value: unknown): string {
  if (value === null || value === undefined) return '–';
  if (typeof value === 'boolean') return value ? 'ja' : 'nein';
  if (typeof value === 'string') {
    if (key === 'action' && Object.hasOwn(AUDIT_ACTIONS, value)) return AUDIT_ACTIONS[value as AuditAction];
    if ((key === 'from' || key === 'to') && Object.hasOwn(ROLE_LABELS, value)) {
      return ROLE_LABELS[value as AuditEntry['actorRole']];
    }
    if (key === 'at') return formatDateTime(value);
    if (key === 'status' && Object.hasOwn(STATUS_LABELS, value)) return STATUS_LABELS[value as VehicleStatus];
    if (key === 'status' && value === 'all') return 'alle';
    if (key === 'secondFactor' && Object.hasOwn(SECOND_FACTOR_WAYS, value)) return SECOND_FACTOR_WAYS[value]!;
    return value;
  }
  if (Array.isArray(value)) return value.join(', ');
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

const rank = (key: string) => {
  const index = DETAIL_ORDER.indexOf(key);
  return index === -1 ? DETAIL_ORDER.length : index;
};

/** 'Einträge: 12 · Suche: ja': the row's details, short. */
function detailsText(details: Record<string, unknown>): string {
  return (
    Object.entries(details)
      .filter(([key]) => !HIDDEN_DETAILS.has(key))
      // In the order of the labels (the database keeps its own order of keys).
      .sort(([a], [b]) => rank(a) - rank(b))
      .map(([key, value]) => `${DETAIL_LABELS[key] ?? key}: ${detailValue(key, value)}`)
      .join(' · ')
  );
}

const actionLabel = (action: string) =>
  Object.hasOwn(AUDIT_ACTIONS, action) ? AUDIT_ACTIONS[action as AuditAction] : action;

/** /admin/protokoll: the audit log of staff actions, filtered, newest first (admins only). */
export function AdminAuditPage() {
  return (
    <AdminOnly>
      <AuditScreen />
    </AdminOnly>
  );
}

function AuditScreen() {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const filters = filtersOf(search);
  const log = useInfiniteQuery(auditQueryOptions(filters));
  const entries = log.data?.pages.flatMap((page) => page.entries);
  const people = log.data?.pages[0]?.people;
  const filtered = Object.values(filters).some(Boolean);

  const setFilters = (changed: Partial<AuditFilters>) => {
    void navigate({
      search: parseAuditSearch({ ...filters, ...changed }),
      replace: true,
      resetScroll: false,
    });
  };

  return (
    <section className="flex-1">
      <p className="text-xs tracking-[0.3em] text-gold-400 uppercase">Adminbereich</p>
      <h1 className="mt-2 font-display text-4xl text-parchment">{M.title}</h1>
      <p className="mt-3 max-w-2xl text-sm text-ash-300">{M.intro}</p>

      <Filters filters={filters} people={people} onChange={setFilters} filtered={filtered} />

      <div className="mt-6" aria-busy={log.isFetching && !log.isFetchingNextPage}>
        {log.isPending ? (
          <Loading label="Protokoll wird geladen...">
            <AuditSkeleton />
          </Loading>
        ) : log.isError ? (
          <LoadError title="Das Protokoll konnte nicht geladen werden" query={log} />
        ) : !entries || entries.length === 0 ? (
          <EmptyState icon={<NoMatchIcon className="size-10" />} title={M.empty}>
            {filtered
              ? 'Für diese Filter gibt es keine Einträge. Ändere die Filter oder setze sie zurück.'
              : 'Sobald das Team Daten exportiert oder Einstellungen ändert, steht es hier.'}
          </EmptyState>
        ) : (
          <>
            <AuditTable entries={entries} />
            <AuditCards entries={entries} />
            {log.hasNextPage ? (
              <div className="mt-6 flex justify-center">
                <Button
                  variant="secondary"
                  disabled={log.isFetchingNextPage}
                  onClick={() => void log.fetchNextPage({ cancelRefetch: false })}
                >
                  {log.isFetchingNextPage ? (
                    <>
                      <Spinner />
                      Lädt...
                    </>
                  ) : (
                    M.loadMore
                  )}
                </Button>
              </div>
            ) : null}
          </>
        )}
      </div>
    </section>
  );
}

function Filters({
  filters,
  people,
  onChange,
  filtered,
}: {
  filters: AuditFilters;
  people: AuditPage['people'] | undefined;
  onChange: (changed: Partial<AuditFilters>) => void;
  filtered: boolean;
}) {
  const fromId = useId();
  const toId = useId();
  const personOptions = useMemo(
    () => (people ?? []).map((person) => ({ value: person.id, label: person.name })),
    [people],
  );
  return (
    <form
      role="search"
      aria-label="Protokoll filtern"
      className="mt-8 grid gap-4 rounded-2xl border border-white/10 bg-night-900/80 p-4 sm:grid-cols-2 sm:p-5 lg:grid-cols-[minmax(0,1fr)_minmax(0,1.3fr)_10rem_10rem_auto] lg:items-end"
      onSubmit={(event) => event.preventDefault()}
    >
      <SelectField
        label={M.filters.person}
        placeholder={M.filters.allPeople}
        options={personOptions}
        value={filters.person}
        onValueChange={(person) => onChange({ person })}
      />
      <SelectField
        label={M.filters.action}
        placeholder={M.filters.allActions}
        options={ACTION_OPTIONS}
        value={filters.action}
        onValueChange={(action) => onChange({ action: action as AuditAction | '' })}
      />
      {/* The range: side by side on phones too; two columns of the grid on wide screens. */}
      <div className="grid grid-cols-2 gap-4 lg:contents">
        <div className="flex flex-col gap-1.5">
          <label htmlFor={fromId} className="text-sm font-medium text-ash-300">
            {M.filters.from}
          </label>
          <input
            id={fromId}
            type="date"
            className={inputClass}
            value={filters.from}
            max={filters.to || undefined}
            onChange={(event) => onChange({ from: event.target.value })}
          />
        </div>
        <div className="flex flex-col gap-1.5">
          <label htmlFor={toId} className="text-sm font-medium text-ash-300">
            {M.filters.to}
          </label>
          <input
            id={toId}
            type="date"
            className={inputClass}
            value={filters.to}
            min={filters.from || undefined}
            onChange={(event) => onChange({ to: event.target.value })}
          />
        </div>
      </div>
      <Button
        variant="ghost"
        className="border border-white/10 sm:self-end"
        disabled={!filtered}
        onClick={() => onChange({ person: '', action: '', from: '', to: '' })}
      >
        {M.filters.reset}
      </Button>
    </form>
  );
}

function Person({ entry }: { entry: AuditEntry }) {
  if (entry.actorRole === 'system') {
    return (
      <>
        <span className="text-parchment">{M.system}</span>
        <span className="block text-xs text-ash-400">{entry.actorName}</span>
      </>
    );
  }
  return (
    <span
      className={
        entry.actorName === PRIVACY_MESSAGES.deletedAccount ? 'text-ash-400 italic' : 'text-parchment'
      }
    >
      {entry.actorName}
    </span>
  );
}

function Action({ entry }: { entry: AuditEntry }) {
  const details = detailsText(entry.details);
  return (
    <>
      <span className="text-parchment">{actionLabel(entry.action)}</span>
      {details ? <span className="mt-0.5 block text-xs text-ash-400">{details}</span> : null}
    </>
  );
}

const mono = 'font-mono text-xs break-all text-ash-300';

/** The subject: an account's or application's name now (its id below), else as recorded. */
function Target({ entry }: { entry: AuditEntry }) {
  if (!entry.target) return <span className="text-ash-400">–</span>;
  if (!entry.targetName) return <span className={mono}>{entry.target}</span>;
  const gone = entry.targetName === PRIVACY_MESSAGES.deletedAccount;
  return (
    <>
      <span className={gone ? 'text-ash-400 italic' : 'text-parchment'}>{entry.targetName}</span>
      <span className="block font-mono text-xs break-all text-ash-400">{entry.target}</span>
    </>
  );
}

/** Wide screens: a table. */
function AuditTable({ entries }: { entries: AuditEntry[] }) {
  const c = M.columns;
  return (
    <div className="hidden overflow-hidden rounded-2xl border border-white/10 bg-night-900/80 md:block">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{M.title}</caption>
        <thead className="border-b border-white/10 text-xs tracking-wide text-ash-400 uppercase">
          <tr>
            {[c.time, c.person, c.role, c.action, c.target, c.address].map((label) => (
              <th key={label} scope="col" className="px-4 py-3 font-semibold">
                {label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-white/5">
          {entries.map((entry) => (
            <tr key={entry.id} className="align-top">
              <td className="px-4 py-3 whitespace-nowrap text-ash-300 tabular-nums">
                <time dateTime={entry.createdAt}>{formatDateTime(entry.createdAt)}</time>
              </td>
              <td className="px-4 py-3">
                <Person entry={entry} />
              </td>
              <td className="px-4 py-3 text-ash-300">{ROLE_LABELS[entry.actorRole] ?? entry.actorRole}</td>
              <td className="px-4 py-3">
                <Action entry={entry} />
              </td>
              <td className="max-w-56 px-4 py-3">
                <Target entry={entry} />
              </td>
              <td className={`px-4 py-3 ${mono}`}>{entry.ip ?? '–'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Phones: one card per row, the same fields. */
function AuditCards({ entries }: { entries: AuditEntry[] }) {
  const c = M.columns;
  return (
    <ul aria-label={M.title} className="flex flex-col gap-3 md:hidden">
      {entries.map((entry) => (
        <li key={entry.id} className="rounded-2xl border border-white/10 bg-night-900/80 p-4 text-sm">
          <p className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
            <time dateTime={entry.createdAt} className="text-xs text-ash-400 tabular-nums">
              {formatDateTime(entry.createdAt)}
            </time>
            <span className="text-xs text-ash-400">{ROLE_LABELS[entry.actorRole] ?? entry.actorRole}</span>
          </p>
          <p className="mt-2">
            <Action entry={entry} />
          </p>
          <dl className="mt-3 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-xs">
            <dt className="text-ash-400">{c.person}</dt>
            <dd>
              <Person entry={entry} />
            </dd>
            <dt className="text-ash-400">{c.target}</dt>
            <dd>
              <Target entry={entry} />
            </dd>
            <dt className="text-ash-400">{c.address}</dt>
            <dd className={mono}>{entry.ip ?? '–'}</dd>
          </dl>
        </li>
      ))}
    </ul>
  );
}

function AuditSkeleton() {
  return (
    <div aria-hidden="true" className="overflow-hidden rounded-2xl border border-white/10 bg-night-900/80">
      {Array.from({ length: 6 }, (_, index) => (
        <div
          key={index}
          className="flex items-center gap-4 border-b border-white/5 px-4 py-4 last:border-b-0"
        >
          <div className="h-4 w-32 animate-pulse rounded bg-night-800 motion-reduce:animate-none" />
          <div className="h-4 w-28 animate-pulse rounded bg-night-800 motion-reduce:animate-none" />
          <div className="hidden h-4 w-16 animate-pulse rounded bg-night-800 motion-reduce:animate-none md:block" />
          <div className="h-4 flex-1 animate-pulse rounded bg-night-800 motion-reduce:animate-none" />
          <div className="hidden h-4 w-24 animate-pulse rounded bg-night-800 motion-reduce:animate-none md:block" />
        </div>
      ))}
    </div>
  );
}
