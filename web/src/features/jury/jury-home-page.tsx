import type { JuryJudgeClassView } from '@schlosstreffen/shared/api';
import { formatJuryPoints } from '@schlosstreffen/shared';
import { Link } from '@tanstack/react-router';
import { ShieldIcon } from '../../components/icons';
import { buttonClass } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/query-states';
import { useCurrentUser } from '../../lib/current-user';
import { formatDateTime } from '../../lib/date-format';
import { useJury, type JuryDevice } from './jury-context';
import { JuryFallback } from './jury-fallback';
import { JuryFindCar } from './jury-find-car';
import { cardTotal, carName, EXCLUSION_LABEL, type JuryModel } from './jury-model';
import { JuryRanking } from './jury-ranking';
import { JuryStatus } from './jury-status';

/** '/jury': the judge's classes, each with its cars in walking order and what is still open. */
export function JuryHomePage() {
  const jury = useJury();
  return (
    <section className="flex flex-col gap-6">
      <header>
        <h1 className="font-display text-3xl text-parchment sm:text-4xl">Jury</h1>
        {jury.model ? (
          <p className="mt-1 text-sm text-ash-300">
            {jury.model.view.editionName} · Bewertungen bis {formatDateTime(jury.model.view.closesBy)}
          </p>
        ) : null}
      </header>
      <JuryHomeBody jury={jury} />
    </section>
  );
}

function JuryHomeBody({ jury }: { jury: JuryDevice }) {
  const model = jury.model;
  if (!model) return <JuryFallback jury={jury} />;
  return (
    <>
      {jury.loadError && jury.loadError.status !== 0 ? (
        <p
          role="alert"
          className="rounded-xl border border-red-400/40 bg-red-950/40 px-4 py-3 text-sm text-red-100"
        >
          {jury.loadError.message}{' '}
          {jury.loadError.status === 401 ? (
            <Link to="/login" search={{ redirect: '/jury' }} className="underline">
              Zur Anmeldung
            </Link>
          ) : null}
        </p>
      ) : null}
      {model.classes.length > 0 ? <JuryFindCar model={model} /> : null}
      <JuryStatus jury={jury} />
      {model.classes.length === 0 ? (
        <EmptyState icon={<ShieldIcon className="size-8" />} title="Noch keine Klasse">
          Ihnen ist noch keine Klasse zugeteilt.
        </EmptyState>
      ) : (
        model.classes.map((jc) => <ClassSection key={jc.id} model={model} jc={jc} />)
      )}
    </>
  );
}

/** '3 von 12 Autos bewertet', and how many this judge leaves out. */
export function summaryText(done: number, scorable: number, excluded: number): string {
  const base = `${done} von ${scorable} ${scorable === 1 ? 'Auto' : 'Autos'} bewertet`;
  return excluded > 0 ? `${base} (${excluded} ausgenommen)` : base;
}

function ClassSection({ model, jc }: { model: JuryModel; jc: JuryJudgeClassView }) {
  const { data: user } = useCurrentUser();
  const summary = model.summaryOf(jc.id);
  const headingId = `jury-class-${jc.id}`;
  const closed = jc.state === 'closed';
  return (
    <section
      aria-labelledby={headingId}
      className="flex flex-col gap-4 rounded-3xl border border-white/10 bg-night-900/60 p-4 sm:p-5"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={headingId} className="font-display text-2xl text-parchment">
          {jc.name}
        </h2>
        <div className="flex gap-2">
          {jc.isHead ? (
            <span className="rounded-full bg-gold-500/15 px-3 py-1 text-xs font-semibold text-gold-200">
              Jury-Leitung
            </span>
          ) : null}
          {closed ? (
            <span className="rounded-full bg-white/10 px-3 py-1 text-xs font-semibold text-parchment">
              Abgeschlossen
            </span>
          ) : null}
        </div>
      </div>
      <p data-testid="jury-class-summary" className="text-sm text-ash-300">
        {summaryText(summary.done, summary.scorable, summary.excluded)}
      </p>
      {jc.isHead || user?.role === 'admin' ? (
        <Link
          to="/jury/klasse/$classId"
          params={{ classId: jc.id }}
          className={buttonClass('secondary', 'min-h-11 self-start')}
        >
          {closed ? 'Ergebnis der Klasse' : 'Fortschritt und Abschluss'}
        </Link>
      ) : null}
      {closed && jc.result ? <JuryRanking rows={jc.result} caption={`Ergebnis: ${jc.name}`} /> : null}
      {jc.cars.length === 0 ? (
        <p className="text-sm text-ash-300">In dieser Klasse tritt noch kein Auto an.</p>
      ) : (
        <ol aria-label={`Autos in Laufreihenfolge: ${jc.name}`} className="flex flex-col gap-2">
          {jc.cars.map((startNumber) => (
            <CarRow key={startNumber} model={model} jc={jc} startNumber={startNumber} />
          ))}
        </ol>
      )}
    </section>
  );
}

function CarRow({
  model,
  jc,
  startNumber,
}: {
  model: JuryModel;
  jc: JuryJudgeClassView;
  startNumber: number;
}) {
  const car = model.carOf(startNumber);
  const exclusion = model.exclusionOf(startNumber);
  const open = model.openCriteria(jc.id, startNumber);
  const total = cardTotal(jc.criteria, model.valuesOf(jc.id, startNumber));
  const pending = model.hasPending(jc.id, startNumber);
  const status = exclusion
    ? EXCLUSION_LABEL[exclusion]
    : open.length === 0
      ? `Bewertet · ${formatJuryPoints(total.total)} von ${formatJuryPoints(total.max)} Punkten`
      : open.length === jc.criteria.length
        ? 'Noch nicht bewertet'
        : `Offen: ${open.map((c) => c.name).join(', ')}`;
  const tone = exclusion ? 'text-ash-400' : open.length === 0 ? 'text-emerald-200' : 'text-amber-200';
  return (
    <li data-testid="jury-car" data-start-number={startNumber}>
      <Link
        to="/jury/$startNumber"
        params={{ startNumber: String(startNumber) }}
        search={{ klasse: jc.id }}
        className="flex min-h-14 items-center gap-3 rounded-2xl border border-white/10 bg-night-950/60 px-3 py-2.5 transition-colors hover:border-gold-500/40"
      >
        <span
          aria-hidden="true"
          className="grid size-11 shrink-0 place-items-center rounded-xl bg-gold-500/10 font-display text-lg text-gold-200 tabular-nums"
        >
          {startNumber}
        </span>
        <span className="flex min-w-0 flex-1 flex-col">
          <span className="truncate font-medium text-parchment">
            <span className="sr-only">Startnummer {startNumber}: </span>
            {car ? carName(car) : `Startnummer ${startNumber}`}
          </span>
          <span className={`text-sm ${tone}`}>
            {status}
            {pending ? ' · wartet auf Versand' : ''}
          </span>
        </span>
        {car ? <span className="shrink-0 text-xs text-ash-400">Zone {car.parkingZone}</span> : null}
      </Link>
    </li>
  );
}
