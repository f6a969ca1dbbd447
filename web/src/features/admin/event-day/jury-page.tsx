import { formatJuryPoints, JURY_MESSAGES, type JuryScope } from '@schlosstreffen/shared';
import type { JuryAdminView, JuryClassAdminView } from '@schlosstreffen/shared/api';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { Button, buttonClass } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { ProgressBar } from '../../../components/ui/progress-bar';
import { LoadError, LoadingBlock } from '../../../components/ui/query-states';
import { notify, RETRY_HINT } from '../../../components/ui/toaster';
import { formatDateTime } from '../../../lib/date-format';
import { resultsPath } from '../../results/results-queries';
import { DownloadIcon } from '../admin-icons';
import { AdminOnly } from '../admin-layout';
import { useChosenEdition } from '../edition-switch';
import { editionsQueryOptions } from '../editions-queries';
import { CriteriaTable, JuryClassDialog } from './jury-class-dialog';
import { CloseClassDialog, MissingList } from './jury-close';
import { CorrectionDialog, CorrectionsList } from './jury-correction';
import { JudgesCard } from './jury-judges';
import { useDeleteJuryClass, usePublishJury } from './jury-mutations';
import { juryQueryOptions } from './jury-queries';

const cardClass = 'rounded-2xl border border-white/10 bg-night-900/80 p-5 shadow-xl shadow-black/20 sm:p-6';
const badgeClass =
  'inline-flex items-center gap-1.5 rounded-full border px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap';

/** Which cars a class's scope takes, in a line. */
export function scopeLine(scope: JuryScope): string {
  const parts: string[] = [];
  if (scope.zones.length)
    parts.push(`${scope.zones.length === 1 ? 'Parkzone' : 'Parkzonen'} ${scope.zones.join(', ')}`);
  if (scope.categories.length) parts.push(`Kategorie ${scope.categories.join(' oder ')}`);
  if (scope.yearFrom !== null && scope.yearTo !== null)
    parts.push(`Baujahr ${scope.yearFrom}–${scope.yearTo}`);
  else if (scope.yearFrom !== null) parts.push(`Baujahr ab ${scope.yearFrom}`);
  else if (scope.yearTo !== null) parts.push(`Baujahr bis ${scope.yearTo}`);
  return parts.length ? parts.join(' · ') : 'Alle bestätigten Autos';
}

const carsText = (count: number) => (count === 1 ? '1 Auto' : `${count} Autos`);

/** /admin/jury: the jury of the chosen edition (admins only). */
export function AdminJuryPage() {
  return (
    <AdminOnly>
      <JuryScreen />
    </AdminOnly>
  );
}

function JuryScreen() {
  const editions = useQuery(editionsQueryOptions);
  const chosen = useChosenEdition();
  const year = chosen ?? editions.data?.editions.find((edition) => edition.current)?.year;
  return (
    <section className="flex-1">
      <header className="max-w-3xl">
        <p className="text-xs tracking-[0.3em] text-gold-400 uppercase">Adminbereich</p>
        <h1 className="mt-2 font-display text-4xl text-parchment">Jury</h1>
        <p className="mt-3 text-sm text-ash-300">
          Klassen mit gewichtetem Bewertungsbogen, ihre Jurymitglieder und der Stand der Bewertungen. Die Jury
          bewertet am Auto auf dem Handy, auch ohne Netz. Abgeschlossene Klassen werden mit „Ergebnisse
          veröffentlichen“ öffentlich und gehören danach zum Archiv.
        </p>
      </header>
      <div className="mt-8">
        {year ? (
          <JuryView year={year} />
        ) : editions.isError ? (
          <LoadError
            title="Ausgaben konnten nicht geladen werden"
            query={editions}
            headingLevel="h2"
            compact
          />
        ) : (
          <LoadingBlock label="Jury wird geladen..." className="h-64 rounded-2xl" />
        )}
      </div>
    </section>
  );
}

function JuryView({ year }: { year: number }) {
  const view = useQuery(juryQueryOptions(year));
  // The class the dialog edits (null: a new one); kept while the dialog closes.
  const [editing, setEditing] = useState<{ juryClass: JuryClassAdminView | null; open: boolean }>({
    juryClass: null,
    open: false,
  });
  if (view.isPending) return <LoadingBlock label="Jury wird geladen..." className="h-64 rounded-2xl" />;
  if (view.isError)
    return <LoadError title="Jury konnte nicht geladen werden" query={view} headingLevel="h2" compact />;
  const data = view.data;
  // Published or past: classes and judges stay as they are (corrections aside).
  const locked = data.frozen || data.publishedAt !== null;
  return (
    <div className="flex flex-col gap-6">
      <StateCard view={data} />
      <section aria-labelledby="jury-classes" className="flex flex-col gap-4">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="jury-classes" className="font-display text-2xl text-parchment">
            Klassen
          </h2>
          {locked ? null : (
            <Button onClick={() => setEditing({ juryClass: null, open: true })}>Klasse anlegen</Button>
          )}
        </div>
        {data.classes.length === 0 ? (
          <p className={`${cardClass} text-sm text-ash-400`}>{JURY_MESSAGES.noClasses}</p>
        ) : (
          data.classes.map((juryClass) => (
            <ClassCard
              key={juryClass.id}
              view={data}
              juryClass={juryClass}
              locked={locked}
              onEdit={() => setEditing({ juryClass, open: true })}
            />
          ))
        )}
      </section>
      <JudgesCard view={data} locked={data.frozen} />
      <RecusalsCard view={data} />
      <CorrectionsList view={data} />
      <JuryClassDialog
        view={data}
        juryClass={editing.juryClass}
        open={editing.open}
        onOpenChange={(open) => setEditing((previous) => ({ ...previous, open }))}
      />
    </div>
  );
}

function StateCard({ view }: { view: JuryAdminView }) {
  const publish = usePublishJury(view.year);
  const [confirming, setConfirming] = useState(false);
  const open = view.classes.filter((juryClass) => juryClass.state === 'open');
  return (
    <article aria-labelledby="jury-state" className={cardClass}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <p className="text-xs font-semibold tracking-[0.2em] text-gold-400 uppercase">{view.editionName}</p>
          <h2 id="jury-state" className="mt-1 font-display text-xl text-parchment">
            Ergebnisse
          </h2>
        </div>
        <span
          className={`${badgeClass} ${
            view.publishedAt
              ? 'border-emerald-400/40 bg-emerald-500/10 text-emerald-200'
              : 'border-white/15 bg-white/5 text-ash-300'
          }`}
        >
          {view.publishedAt ? 'Veröffentlicht' : 'Nicht veröffentlicht'}
        </span>
      </div>
      <dl className="mt-4 grid grid-cols-1 gap-x-4 gap-y-3 text-sm sm:grid-cols-2">
        <div>
          <dt className="text-xs text-ash-400">Abschließen und veröffentlichen bis</dt>
          <dd className="text-parchment">{formatDateTime(view.closesBy)}</dd>
        </div>
        <div>
          <dt className="text-xs text-ash-400">Veröffentlicht</dt>
          <dd className="text-parchment">{view.publishedAt ? formatDateTime(view.publishedAt) : '–'}</dd>
        </div>
      </dl>
      {view.frozen ? (
        <p className="mt-4 text-sm text-ash-400">{JURY_MESSAGES.frozen(view.editionName)}</p>
      ) : null}
      {!view.publishedAt && !view.frozen && open.length > 0 && view.classes.length > 0 ? (
        <p className="mt-4 text-sm text-ash-400">{JURY_MESSAGES.notAllClosed(open.map((c) => c.name))}</p>
      ) : null}
      <div className="mt-5 flex flex-col flex-wrap gap-3 sm:flex-row">
        {!view.publishedAt && !view.frozen ? (
          <Button
            onClick={() => setConfirming(true)}
            disabled={publish.isPending || view.classes.length === 0 || open.length > 0}
          >
            Ergebnisse veröffentlichen
          </Button>
        ) : null}
        {view.publishedAt ? (
          <a href={resultsPath(view.year)} className={buttonClass('secondary')}>
            Öffentliche Ergebnisse
          </a>
        ) : null}
        <Link to="/admin/siegerehrung" className={buttonClass('secondary')}>
          Siegerehrung
        </Link>
        {view.certificatesUrl ? (
          <a href={view.certificatesUrl} download className={buttonClass('secondary')}>
            <DownloadIcon className="size-4" />
            Urkunden (PDF)
          </a>
        ) : null}
      </div>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Ergebnisse veröffentlichen?"
        confirmLabel="Veröffentlichen"
        pendingLabel="Wird veröffentlicht..."
        pending={publish.isPending}
        onConfirm={() =>
          publish.mutate(undefined, {
            onSuccess: () => {
              setConfirming(false);
              notify.success(JURY_MESSAGES.published);
            },
            onError: (error) => notify.error('Nicht veröffentlicht', error, RETRY_HINT),
          })
        }
      >
        Die Plätze aller Klassen erscheinen unter /ergebnisse/{view.year}, auf den Fahrzeugseiten und bei den
        Besitzern; die Urkunden werden erstellt. Danach ändern sich Klassen und Bewertungen nicht mehr.
      </ConfirmDialog>
    </article>
  );
}

function ClassCard({
  view,
  juryClass,
  locked,
  onEdit,
}: {
  view: JuryAdminView;
  juryClass: JuryClassAdminView;
  locked: boolean;
  onEdit: () => void;
}) {
  const [dialog, setDialog] = useState<'close' | 'correct' | 'delete' | null>(null);
  const remove = useDeleteJuryClass(view.year);
  const judgeName = new Map(view.judges.map((judge) => [judge.userId, judge.name]));
  const head = juryClass.headJudgeId ? judgeName.get(juryClass.headJudgeId) : undefined;
  const open = juryClass.state === 'open';
  const headingId = `jury-class-${juryClass.id}`;
  return (
    <article aria-labelledby={headingId} className={cardClass}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 id={headingId} className="font-display text-xl text-parchment">
            {juryClass.name}
          </h3>
          <p className="mt-1 text-sm text-ash-300">
            {scopeLine(juryClass.scope)} · {carsText(juryClass.cars)}
          </p>
        </div>
        <span
          className={`${badgeClass} ${
            open
              ? 'border-emerald-400/40 bg-emerald-500/10 text-emerald-200'
              : 'border-gold-500/40 bg-gold-500/10 text-gold-200'
          }`}
        >
          {open ? 'Offen' : 'Abgeschlossen'}
        </span>
      </div>

      <div className="mt-4 grid gap-6 lg:grid-cols-2">
        <div className="flex flex-col gap-3">
          <CriteriaTable criteria={juryClass.criteria} />
          <dl className="grid grid-cols-1 gap-2 text-sm sm:grid-cols-2">
            <div>
              <dt className="text-xs text-ash-400">Plätze</dt>
              <dd className="text-parchment">
                {juryClass.places === 1 ? 'Nur der 1. Platz' : `${juryClass.places} Plätze`}
              </dd>
            </div>
            <div>
              <dt className="text-xs text-ash-400">Jury-Leitung</dt>
              <dd className="text-parchment">{head ?? 'Keine'}</dd>
            </div>
            <div className="sm:col-span-2">
              <dt className="text-xs text-ash-400">Jurymitglieder</dt>
              <dd className="text-parchment">
                {juryClass.judgeIds.length
                  ? juryClass.judgeIds.map((id) => judgeName.get(id) ?? 'Unbekannt').join(', ')
                  : 'Noch keine'}
              </dd>
            </div>
          </dl>
        </div>
        <div className="flex flex-col gap-3">
          <ProgressBar
            label="Bewertungen"
            value={juryClass.cardsDone}
            max={Math.max(juryClass.cardsExpected, 1)}
            valueText={`${juryClass.cardsDone} von ${juryClass.cardsExpected} Bewertungen`}
          />
          {open && juryClass.missing.length ? (
            <details className="rounded-xl border border-white/10 bg-night-950/50 px-4 py-3">
              <summary className="cursor-pointer text-sm text-ash-300">
                Fehlende Bewertungen ({juryClass.missing.length})
              </summary>
              <div className="mt-2">
                <MissingList missing={juryClass.missing} />
              </div>
            </details>
          ) : null}
          {juryClass.result ? <ResultTable juryClass={juryClass} /> : null}
        </div>
      </div>

      <div className="mt-5 flex flex-wrap gap-3">
        {!locked && open ? (
          <Button variant="secondary" onClick={onEdit}>
            Bearbeiten<span className="sr-only"> – {juryClass.name}</span>
          </Button>
        ) : null}
        {!locked && !juryClass.hasScores ? (
          <Button variant="ghost" onClick={() => setDialog('delete')}>
            Löschen<span className="sr-only"> – {juryClass.name}</span>
          </Button>
        ) : null}
        {!locked && open ? (
          <Button onClick={() => setDialog('close')}>
            Klasse abschließen<span className="sr-only"> – {juryClass.name}</span>
          </Button>
        ) : null}
        {view.frozen && !open ? (
          <Button variant="secondary" onClick={() => setDialog('correct')}>
            Korrektur<span className="sr-only"> – {juryClass.name}</span>
          </Button>
        ) : null}
      </div>

      {dialog === 'close' ? (
        <CloseClassDialog view={view} juryClass={juryClass} onClose={() => setDialog(null)} />
      ) : null}
      {dialog === 'correct' ? (
        <CorrectionDialog view={view} juryClass={juryClass} onClose={() => setDialog(null)} />
      ) : null}
      <ConfirmDialog
        open={dialog === 'delete'}
        onOpenChange={(next) => {
          if (!next) setDialog(null);
        }}
        title="Klasse löschen?"
        confirmLabel="Löschen"
        pendingLabel="Wird gelöscht..."
        pending={remove.isPending}
        destructive
        onConfirm={() =>
          remove.mutate(juryClass.id, {
            onSuccess: () => {
              setDialog(null);
              notify.success('Klasse gelöscht', juryClass.name);
            },
            onError: (error) => notify.error('Nicht gelöscht', error, RETRY_HINT),
          })
        }
      >
        „{juryClass.name}“ wird mit ihrem Bewertungsbogen gelöscht. Bewertet wurde in ihr noch nicht.
      </ConfirmDialog>
    </article>
  );
}

/** A closed class's ranking as stored: place, start number, name, mean, and how it was closed. */
function ResultTable({ juryClass }: { juryClass: JuryClassAdminView }) {
  const result = juryClass.result!;
  return (
    <div className="flex flex-col gap-2">
      <p className="text-xs text-ash-400">Abgeschlossen am {formatDateTime(result.closedAt)}</p>
      <ol
        aria-label={`Rangliste ${juryClass.name}`}
        className="flex flex-col divide-y divide-white/5 text-sm"
      >
        {result.rows.map((row) => (
          <li key={row.vehicleId} className="flex flex-wrap items-baseline gap-x-3 gap-y-1 py-1.5">
            <span
              className={`w-16 shrink-0 tabular-nums ${row.place ? 'font-semibold text-gold-200' : 'text-ash-400'}`}
            >
              {row.place ? `${row.place}. Platz` : row.rank ? `${row.rank}.` : '–'}
            </span>
            <span className="min-w-0 flex-1 text-parchment">
              Nr. {row.startNumber} · {row.name}
            </span>
            <span className="text-ash-300 tabular-nums">
              {row.mean === null ? 'ohne Bewertung' : `${formatJuryPoints(row.mean)} Punkte`}
            </span>
            {row.tieBreak ? (
              <span className="w-full pl-19 text-xs text-ash-400">
                Gleichstand entschieden: {row.tieBreak}
              </span>
            ) : null}
          </li>
        ))}
      </ol>
      {result.forceReason ? (
        <p className="text-xs text-ash-400">
          Trotz fehlender Bewertungen abgeschlossen: {result.forceReason}
        </p>
      ) : null}
    </div>
  );
}

/** 'Befangenheiten': the judges' bias declarations (they score those cars in no class). */
function RecusalsCard({ view }: { view: JuryAdminView }) {
  return (
    <article aria-labelledby="jury-recusals" className={cardClass}>
      <h2 id="jury-recusals" className="font-display text-xl text-parchment">
        Befangenheiten
      </h2>
      <p className="mt-1 text-sm text-ash-400">
        Ein Jurymitglied, das sich am Auto für befangen erklärt, bewertet es in keiner Klasse.
      </p>
      {view.recusals.length === 0 ? (
        <p className="mt-4 text-sm text-ash-400">Keine erklärt.</p>
      ) : (
        <ul className="mt-4 flex flex-col divide-y divide-white/5 text-sm">
          {view.recusals.map((recusal) => (
            <li key={`${recusal.judgeName}-${recusal.startNumber}`} className="flex flex-wrap gap-x-3 py-2">
              <span className="font-semibold text-parchment">{recusal.judgeName}</span>
              <span className="text-ash-300">
                Nr. {recusal.startNumber} · {recusal.car}
              </span>
              <span className="text-xs text-ash-400 sm:ml-auto">{formatDateTime(recusal.declaredAt)}</span>
            </li>
          ))}
        </ul>
      )}
    </article>
  );
}
