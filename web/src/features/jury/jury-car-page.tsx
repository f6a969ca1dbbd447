import { formatJuryPoints, JURY_MESSAGES, type JuryCriterion } from '@schlosstreffen/shared';
import type { JuryJudgeClassView } from '@schlosstreffen/shared/api';
import { Link } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { ChevronLeftIcon, ChevronRightIcon } from '../../components/icons';
import { Button, buttonClass } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { useJury, type JuryDevice } from './jury-context';
import { JuryFallback } from './jury-fallback';
import { cardTotal, carName, type JuryModel } from './jury-model';
import { entriesText } from './jury-status';

/** Scales up to this many points get a row of buttons; longer ones a stepper. */
const BUTTON_SCALE_MAX = 10;

/**
 * '/jury/{Startnummer}': the car's scorecard in each of the judge's classes it competes in. Every
 * press is kept on the device at once and sent when the network allows. A judge's own car, or one
 * they declared a bias towards, shows why it is not scored; a closed class shows the card read-only.
 */
export function JuryCarPage({ startNumber, classId }: { startNumber: number; classId?: string }) {
  const jury = useJury();
  const model = jury.model;
  return (
    <section className="flex flex-col gap-5">
      <Link
        to="/jury"
        className="inline-flex min-h-11 items-center gap-1 self-start text-sm text-gold-300 hover:text-gold-200"
      >
        <ChevronLeftIcon className="size-4" />
        Zur Übersicht
      </Link>
      {model ? (
        <CarScorecards jury={jury} model={model} startNumber={startNumber} classId={classId} />
      ) : (
        <>
          <h1 className="font-display text-3xl text-parchment">Startnummer {startNumber}</h1>
          <JuryFallback jury={jury} />
        </>
      )}
    </section>
  );
}

function CarScorecards({
  jury,
  model,
  startNumber,
  classId,
}: {
  jury: JuryDevice;
  model: JuryModel;
  startNumber: number;
  classId?: string;
}) {
  const car = model.carOf(startNumber);
  const classes = model.classesOfCar(startNumber);
  if (!car || classes.length === 0) {
    return (
      <>
        <h1 className="font-display text-3xl text-parchment">Startnummer {startNumber}</h1>
        <p
          role="alert"
          className="rounded-2xl border border-amber-400/30 bg-amber-400/10 p-5 text-sm text-amber-100"
        >
          Startnummer {startNumber} tritt in keiner Ihrer Klassen an.
        </p>
      </>
    );
  }
  const exclusion = model.exclusionOf(startNumber);
  // The class whose walking order the neighbours follow: the one the judge came from, else the first.
  const walking = classes.find((c) => c.id === classId) ?? classes[0]!;
  const anyOpen = classes.some((c) => c.state === 'open');

  return (
    <>
      <header className="flex items-start gap-4">
        <span
          aria-hidden="true"
          className="grid size-16 shrink-0 place-items-center rounded-2xl bg-gold-500/10 font-display text-2xl text-gold-200 tabular-nums"
        >
          {startNumber}
        </span>
        <div className="min-w-0">
          <p className="text-xs tracking-[0.2em] text-gold-400 uppercase">Startnummer {startNumber}</p>
          <h1 className="font-display text-3xl text-parchment">{carName(car)}</h1>
          <p className="text-sm text-ash-300">
            {car.brand} {car.model} · {car.year} · Zone {car.parkingZone}
          </p>
        </div>
      </header>
      {car.imageUrl ? (
        <img src={car.imageUrl} alt={carName(car)} className="max-h-56 w-full rounded-2xl object-cover" />
      ) : null}
      {exclusion ? (
        <p
          role="status"
          data-testid="jury-excluded"
          className="rounded-2xl border border-white/15 bg-white/5 p-4 text-sm text-parchment"
        >
          <span className="font-bold">{exclusion === 'own' ? 'Eigenes Auto' : 'Befangen'}: </span>
          {exclusion === 'own' ? JURY_MESSAGES.ownCar : JURY_MESSAGES.biased}
        </p>
      ) : null}
      {classes.map((jc) => (
        <Scorecard
          key={jc.id}
          jury={jury}
          model={model}
          jc={jc}
          startNumber={startNumber}
          locked={!!exclusion}
        />
      ))}
      {!exclusion && anyOpen ? <BiasButton jury={jury} startNumber={startNumber} /> : null}
      <WalkingOrder jc={walking} startNumber={startNumber} model={model} />
      <p className="text-center text-xs text-ash-400" data-testid="jury-car-pending">
        {jury.online ? 'Online' : 'Offline'} · Warten auf Versand: {entriesText(jury.pending)}
      </p>
    </>
  );
}

function Scorecard({
  jury,
  model,
  jc,
  startNumber,
  locked,
}: {
  jury: JuryDevice;
  model: JuryModel;
  jc: JuryJudgeClassView;
  startNumber: number;
  locked: boolean;
}) {
  const values = model.valuesOf(jc.id, startNumber);
  const total = cardTotal(jc.criteria, values);
  const open = model.openCriteria(jc.id, startNumber);
  const pending = model.hasPending(jc.id, startNumber);
  const closed = jc.state === 'closed';
  const headingId = `scorecard-${jc.id}`;
  const readOnly = closed || locked;
  // Not scored by this judge and nothing entered before: the reason above says it all.
  if (locked && Object.keys(values).length === 0) return null;

  return (
    <section
      aria-labelledby={headingId}
      data-testid="jury-scorecard"
      className="flex flex-col gap-4 rounded-3xl border border-white/10 bg-night-900/70 p-4 sm:p-5"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={headingId} className="font-display text-2xl text-parchment">
          {jc.name}
        </h2>
        {closed ? <span className="text-xs font-semibold text-ash-300 uppercase">Abgeschlossen</span> : null}
      </div>
      {readOnly ? (
        <>
          <p className="text-sm text-ash-300">
            {closed
              ? 'Die Klasse ist abgeschlossen. Ihre Bewertung ist nur noch zu lesen.'
              : 'Gesperrt: Sie bewerten dieses Auto nicht mehr.'}
          </p>
          <dl className="grid grid-cols-[minmax(0,1fr)_auto] gap-x-4 gap-y-1 text-sm">
            {jc.criteria.map((criterion) => (
              <div key={criterion.id} className="contents">
                <dt className="text-ash-300">
                  {criterion.name} <span className="text-ash-400">(Gewicht {criterion.weight})</span>
                </dt>
                <dd className="text-right text-parchment tabular-nums">
                  {values[criterion.id] === undefined ? '–' : `${values[criterion.id]} von ${criterion.max}`}
                </dd>
              </div>
            ))}
          </dl>
        </>
      ) : (
        jc.criteria.map((criterion) => (
          <CriterionInput
            key={criterion.id}
            name={`${jc.id}-${criterion.id}`}
            criterion={criterion}
            value={values[criterion.id]}
            onChange={(value) => void jury.setScore(jc.id, startNumber, criterion.id, value)}
          />
        ))
      )}
      <div role="status" data-testid="jury-card-total" className="rounded-2xl bg-white/5 px-4 py-3 text-sm">
        <p className="text-parchment">
          Ihre Summe (gewichtet):{' '}
          <span className="font-bold tabular-nums">
            {formatJuryPoints(total.total)} von {formatJuryPoints(total.max)}
          </span>
        </p>
        {open.length > 0 ? (
          <p className="text-amber-200">Noch offen: {open.map((c) => c.name).join(', ')}</p>
        ) : (
          <p className="text-emerald-200">Vollständig bewertet</p>
        )}
        {pending ? <p className="text-ash-300">Auf dem Gerät gespeichert, wartet auf Versand</p> : null}
      </div>
    </section>
  );
}

/** One criterion's value: a row of big buttons for scales up to 10, else a stepper. */
function CriterionInput({
  name,
  criterion,
  value,
  onChange,
}: {
  name: string;
  criterion: JuryCriterion;
  value: number | undefined;
  onChange: (value: number) => void;
}) {
  const legend = (
    <legend className="mb-2 flex w-full items-baseline justify-between gap-2 text-sm">
      <span className="font-semibold text-parchment">{criterion.name}</span>
      <span className="text-ash-400">
        Gewicht {criterion.weight} · 0–{criterion.max}
      </span>
    </legend>
  );
  if (criterion.max > BUTTON_SCALE_MAX) {
    return (
      <fieldset>
        {legend}
        <Stepper label={criterion.name} max={criterion.max} value={value} onChange={onChange} />
      </fieldset>
    );
  }
  return (
    <fieldset>
      {legend}
      <div className="grid grid-cols-6 gap-2">
        {Array.from({ length: criterion.max + 1 }, (_, n) => (
          <label key={n} className="relative">
            <input
              type="radio"
              name={name}
              value={n}
              checked={value === n}
              onChange={() => onChange(n)}
              className="peer absolute inset-0 size-full cursor-pointer opacity-0"
            />
            <span className="grid min-h-12 place-items-center rounded-xl border border-white/15 bg-night-950 text-lg font-semibold text-parchment tabular-nums transition-colors peer-checked:border-gold-400 peer-checked:bg-gold-500 peer-checked:text-night-950 peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-gold-400">
              {n}
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** − and + around a number field; a typed value counts once it is a whole number in range. */
function Stepper({
  label,
  max,
  value,
  onChange,
}: {
  label: string;
  max: number;
  value: number | undefined;
  onChange: (value: number) => void;
}) {
  const [text, setText] = useState(value === undefined ? '' : String(value));
  useEffect(() => setText(value === undefined ? '' : String(value)), [value]);
  const commit = (raw: string) => {
    if (!/^\d{1,3}$/.test(raw)) return;
    const next = Number(raw);
    if (next <= max && next !== value) onChange(next);
  };
  // From what the field shows: a second press before the first is stored counts on from it.
  const shown = /^\d{1,3}$/.test(text) ? Number(text) : value;
  const step = (delta: number) => {
    const next = Math.min(max, Math.max(0, (shown ?? (delta > 0 ? -1 : 1)) + delta));
    if (next === shown) return;
    setText(String(next));
    onChange(next);
  };
  const outOfRange = text !== '' && (!/^\d{1,3}$/.test(text) || Number(text) > max);
  return (
    <div className="flex items-center gap-2">
      <Button
        variant="secondary"
        className="min-h-12 min-w-12 text-xl"
        aria-label={`${label}: einen Punkt weniger`}
        disabled={shown === undefined || shown <= 0}
        onClick={() => step(-1)}
      >
        −
      </Button>
      <input
        type="text"
        inputMode="numeric"
        aria-label={`${label}, 0 bis ${max}`}
        aria-invalid={outOfRange || undefined}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          commit(event.target.value.trim());
        }}
        className="min-h-12 w-24 rounded-xl border border-white/15 bg-night-950 px-3 text-center text-lg text-parchment tabular-nums focus:border-gold-400 focus:outline-none aria-[invalid=true]:border-red-400"
      />
      <Button
        variant="secondary"
        className="min-h-12 min-w-12 text-xl"
        aria-label={`${label}: einen Punkt mehr`}
        disabled={shown !== undefined && shown >= max}
        onClick={() => step(1)}
      >
        +
      </Button>
      {outOfRange ? <span className="text-sm text-red-300">{JURY_MESSAGES.valueRange(max)}</span> : null}
    </div>
  );
}

/** 'Befangen': final, recorded and seen by the admins; the card is locked afterwards. */
function BiasButton({ jury, startNumber }: { jury: JuryDevice; startNumber: number }) {
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState(false);
  return (
    <>
      <Button variant="ghost" className="min-h-12 border border-white/15" onClick={() => setOpen(true)}>
        Befangen
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title="Als befangen erklären?"
        confirmLabel="Befangen erklären"
        pendingLabel="Wird gespeichert..."
        pending={pending}
        destructive
        onConfirm={() => {
          setPending(true);
          void jury
            .recuse(startNumber)
            .finally(() => setPending(false))
            .then(() => setOpen(false));
        }}
      >
        Sie bewerten Startnummer {startNumber} dann in keiner Klasse. Die Erklärung ist endgültig, wird
        gespeichert und ist für die Admins sichtbar.
      </ConfirmDialog>
    </>
  );
}

/** The neighbours in the class's walking order (zone, then start number). */
function WalkingOrder({
  jc,
  startNumber,
  model,
}: {
  jc: JuryJudgeClassView;
  startNumber: number;
  model: JuryModel;
}) {
  const index = jc.cars.indexOf(startNumber);
  const previous = index > 0 ? jc.cars[index - 1] : undefined;
  const next = index >= 0 && index < jc.cars.length - 1 ? jc.cars[index + 1] : undefined;
  const name = (n: number) => {
    const car = model.carOf(n);
    return car ? `Nr. ${n} · ${carName(car)}` : `Nr. ${n}`;
  };
  return (
    <nav aria-label={`Laufreihenfolge: ${jc.name}`} className="flex flex-col gap-2">
      <p className="text-center text-sm text-ash-300">
        {jc.name}: Auto {index + 1} von {jc.cars.length}
      </p>
      <div className="grid grid-cols-2 gap-3">
        {previous !== undefined ? (
          <Link
            to="/jury/$startNumber"
            params={{ startNumber: String(previous) }}
            search={{ klasse: jc.id }}
            aria-label={`Vorheriges Auto: ${name(previous)}`}
            className={buttonClass('secondary', 'min-h-14 w-full')}
          >
            <ChevronLeftIcon className="size-4" />
            Vorheriges
          </Link>
        ) : (
          <span />
        )}
        {next !== undefined ? (
          <Link
            to="/jury/$startNumber"
            params={{ startNumber: String(next) }}
            search={{ klasse: jc.id }}
            aria-label={`Nächstes Auto: ${name(next)}`}
            className={buttonClass('primary', 'min-h-14 w-full')}
          >
            Nächstes
            <ChevronRightIcon className="size-4" />
          </Link>
        ) : (
          <span />
        )}
      </div>
    </nav>
  );
}
