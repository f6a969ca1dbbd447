import {
  EDITION_MESSAGES,
  EDITION_PHASE_LABELS,
  isOverPhase,
  parseParkingZones,
  twoDigits,
  venueClock,
  venueInstant,
  type EditionPhase,
} from '@schlosstreffen/shared';
import type { AdminEdition } from '@schlosstreffen/shared/api';
import { useQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { inputClass } from '../../../components/ui/form-field';
import { LoadError, Loading } from '../../../components/ui/query-states';
import { Spinner } from '../../../components/ui/spinner';
import { errorText, notify, RETRY_HINT } from '../../../components/ui/toaster';
import { formatDate, formatDateTime } from '../../../lib/date-format';
import { AdminOnly } from '../admin-layout';
import { editionsQueryOptions } from '../editions-queries';
import {
  EditionFeeSection,
  FEE_FORM_INVALID,
  feeSummary,
  feeToSave,
  showFeeServerIssues,
  useEditionFeeForm,
} from './edition-fee-section';
import {
  EditionVisitorTicketsSection,
  showTicketsServerIssues,
  TICKETS_FORM_INVALID,
  ticketsSummary,
  ticketsToSave,
  useEditionTicketsForm,
} from './edition-visitor-tickets-section';
import { useCreateEdition, useEditionAction, useUpdateEdition } from './editions-mutations';

const PHASE_TONES: Record<EditionPhase, string> = {
  preparation: 'border-white/15 bg-white/5 text-ash-300',
  scheduled: 'border-white/15 bg-white/5 text-ash-200',
  open: 'border-emerald-400/40 bg-emerald-500/10 text-emerald-200',
  closed: 'border-gold-500/40 bg-gold-500/10 text-gold-200',
  meetingDay: 'border-gold-400/60 bg-gold-500/20 text-gold-100',
  over: 'border-white/10 bg-night-950 text-ash-300',
  archived: 'border-white/10 bg-night-950 text-ash-400',
};

/** The first edition holds what the platform held before editions: open and current from the start. */
const FROM_THE_START = Date.UTC(2000, 0, 1);
const momentText = (iso: string | null, none: string) =>
  iso === null ? none : Date.parse(iso) < FROM_THE_START ? 'Von Anfang an' : formatDateTime(iso);

const badgeClass =
  'inline-flex items-center gap-1.5 rounded-full border px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap';

/** A `datetime-local` value (venue time) as an ISO instant; undefined when empty. */
function venueMoment(local: string): string | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(local);
  if (!match) return undefined;
  const [, year, month, day, hour, minute] = match.map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  return venueInstant({ year, month, day, hour, minute, second: 0 }).toISOString();
}

/** An instant as a `datetime-local` value at the venue. */
function localAtVenue(iso: string): string {
  const clock = venueClock(new Date(iso));
  return `${clock.year}-${twoDigits(clock.month)}-${twoDigits(clock.day)}T${twoDigits(clock.hour)}:${twoDigits(clock.minute)}`;
}

/** /admin/ausgaben: the meetings year after year (admins only). */
export function AdminEditionsPage() {
  return (
    <AdminOnly>
      <EditionsScreen />
    </AdminOnly>
  );
}

function EditionsScreen() {
  const editions = useQuery(editionsQueryOptions);
  return (
    <section className="flex-1">
      <header className="max-w-3xl">
        <p className="text-xs tracking-[0.3em] text-gold-400 uppercase">Adminbereich</p>
        <h1 className="mt-2 font-display text-4xl text-parchment">Ausgaben</h1>
        <p className="mt-3 text-sm text-ash-300">
          Jedes Jahr ein Schlosstreffen: Legen Sie die nächste Ausgabe aus der letzten an (Termine ein Jahr
          später, Parkzonen und Fristen übernommen), öffnen Sie die Bewerbung und stellen Sie die Startseite
          um. Frühere Ausgaben bleiben mit ihren Bewerbungen, Startnummern und Quartett-Sätzen lesbar.
        </p>
      </header>
      <div className="mt-8 grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem] lg:gap-8">
        <div>
          <h2 className="font-display text-2xl text-parchment">Alle Ausgaben</h2>
          <div className="mt-4">
            {editions.isPending ? (
              <Loading label="Ausgaben werden geladen...">
                <div aria-hidden="true" className="h-48 animate-pulse rounded-2xl bg-night-900/80" />
              </Loading>
            ) : editions.isError ? (
              <LoadError
                title="Ausgaben konnten nicht geladen werden"
                query={editions}
                headingLevel="h3"
                compact
              />
            ) : (
              <ol aria-label="Ausgaben" className="flex flex-col gap-4">
                {editions.data.editions.map((edition) => (
                  <li key={edition.year}>
                    <EditionCard edition={edition} />
                  </li>
                ))}
              </ol>
            )}
          </div>
        </div>
        <div className="lg:self-start">
          {editions.data ? <CreateForm newest={editions.data.editions[0]} /> : null}
        </div>
      </div>
    </section>
  );
}

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <dt className="text-xs text-ash-400">{label}</dt>
      <dd className="text-sm text-parchment">{children}</dd>
    </div>
  );
}

function EditionCard({ edition }: { edition: AdminEdition }) {
  const headingId = `edition-${edition.year}`;
  const [editing, setEditing] = useState(false);
  const over = isOverPhase(edition.phase);
  const notYetOpen = edition.phase === 'preparation' || edition.phase === 'scheduled';
  if (editing) return <EditionForm edition={edition} onDone={() => setEditing(false)} />;
  return (
    <article
      aria-labelledby={headingId}
      className="rounded-2xl border border-white/10 bg-night-900/80 p-5 shadow-xl shadow-black/20"
    >
      <div className="flex flex-wrap items-center gap-2">
        <h3 id={headingId} className="font-display text-2xl text-parchment">
          {edition.name}
        </h3>
        <span className={`${badgeClass} ${PHASE_TONES[edition.phase]}`}>
          {EDITION_PHASE_LABELS[edition.phase]}
        </span>
        {edition.current ? (
          <span className={`${badgeClass} border-gold-400/60 bg-gold-500/20 text-gold-100`}>
            Auf der Startseite
          </span>
        ) : null}
        {!over ? (
          <Button variant="ghost" className="ml-auto" onClick={() => setEditing(true)}>
            Bearbeiten
          </Button>
        ) : null}
      </div>
      <dl className="mt-4 grid gap-3 sm:grid-cols-2">
        <Fact label="Termin">
          {formatDateTime(edition.startsAt)} – {formatDateTime(edition.endsAt)}
        </Fact>
        <Fact label="Ort">{edition.place}</Fact>
        <Fact label="Bewerbung ab">{momentText(edition.applicationsOpenAt, 'Noch nicht geöffnet')}</Fact>
        <Fact label="Bewerbungsschluss">{formatDate(`${edition.applicationDeadline}T12:00:00Z`)}</Fact>
        <Fact label="Parkzonen">
          {edition.parkingZones.map((zone) => `${zone.name}: ${zone.capacity}`).join(', ')}
        </Fact>
        <Fact label="Bewerbungen">{edition.applications}</Fact>
        <Fact label="Auf der Startseite ab">{momentText(edition.currentFrom, 'Noch nicht festgelegt')}</Fact>
        <Fact label="Fristen">
          Bestätigen binnen {edition.confirmDays} Tagen, Erinnerung {edition.reminderDays} Tage vorher,
          Nachrücken bis {edition.cutoffDays} Tage vor dem Termin
        </Fact>
        {edition.fee ? <Fact label="Teilnahmegebühr">{feeSummary(edition.fee)}</Fact> : null}
      </dl>
      {edition.visitorTickets ? (
        <p className="mt-3 text-sm text-ash-300">{ticketsSummary(edition.visitorTickets)}</p>
      ) : null}
      {notYetOpen || (!over && !edition.current) ? (
        <div className="mt-5 grid gap-4 border-t border-white/10 pt-4 sm:grid-cols-2">
          {notYetOpen ? (
            <MomentAction
              edition={edition}
              action="open"
              label="Bewerbung öffnen"
              pendingLabel="Wird geöffnet..."
              done="Bewerbung geöffnet"
            />
          ) : null}
          {!edition.current ? (
            <MomentAction
              edition={edition}
              action="current"
              label="Auf die Startseite"
              pendingLabel="Wird umgestellt..."
              done="Startseite umgestellt"
              confirm
            />
          ) : null}
        </div>
      ) : null}
    </article>
  );
}

/** An action at a set moment ('Zeitpunkt', venue time) or, left empty, now. */
function MomentAction({
  edition,
  action,
  label,
  pendingLabel,
  done,
  confirm = false,
}: {
  edition: AdminEdition;
  action: 'open' | 'current';
  label: string;
  pendingLabel: string;
  done: string;
  confirm?: boolean;
}) {
  const [local, setLocal] = useState('');
  const [asking, setAsking] = useState(false);
  const mutation = useEditionAction(action);
  const run = () => {
    mutation.mutate(
      { year: edition.year, at: venueMoment(local) },
      {
        onSuccess: (answer) => {
          notify.success(done, answer.message);
          setLocal('');
        },
        onError: (error) => notify.error(`${label} fehlgeschlagen`, error, RETRY_HINT),
        onSettled: () => setAsking(false),
      },
    );
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (confirm) setAsking(true);
    else run();
  };
  return (
    <form
      noValidate
      aria-label={`${label}: ${edition.name}`}
      onSubmit={submit}
      className="flex flex-col gap-2"
    >
      <LabelledInput
        label="Zeitpunkt (leer: sofort)"
        type="datetime-local"
        value={local}
        onChange={setLocal}
      />
      <Button type="submit" variant="secondary" disabled={mutation.isPending}>
        {mutation.isPending ? (
          <>
            <Spinner />
            {pendingLabel}
          </>
        ) : (
          label
        )}
      </Button>
      {confirm ? (
        <ConfirmDialog
          open={asking}
          onOpenChange={setAsking}
          title={`${edition.name} auf die Startseite?`}
          confirmLabel={label}
          pendingLabel={pendingLabel}
          pending={mutation.isPending}
          onConfirm={run}
        >
          {local
            ? `Ab ${formatDateTime(venueMoment(local)!)} zeigt die Startseite ${edition.name}:`
            : `Die Startseite zeigt sofort ${edition.name}:`}{' '}
          Termin, Countdown und bestätigte Fahrzeuge dieser Ausgabe. Neue Bewerbungen und
          Besucher-Vormerkungen gehören dann zu ihr, der Check-in öffnet ihr Tor. Die bisherige Ausgabe wird
          archiviert und bleibt im Adminbereich lesbar.
        </ConfirmDialog>
      ) : null}
    </form>
  );
}

function CreateForm({ newest }: { newest: AdminEdition | undefined }) {
  const create = useCreateEdition();
  const nextYear = (newest?.year ?? new Date().getFullYear()) + 1;
  const [year, setYear] = useState(String(nextYear));
  const [deadline, setDeadline] = useState('');
  const [start, setStart] = useState('');
  const [end, setEnd] = useState('');
  const [error, setError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (!/^\d{4}$/.test(year.trim())) {
      setError('Bitte gib das Jahr der Ausgabe an (z. B. 2027).');
      return;
    }
    create.mutate(
      {
        year: Number(year.trim()),
        ...(deadline ? { deadline } : {}),
        ...(start ? { start: venueMoment(start) } : {}),
        ...(end ? { end: venueMoment(end) } : {}),
      },
      {
        onSuccess: (answer) => {
          notify.success('Ausgabe angelegt', answer.message);
          setYear(String(Number(year) + 1));
          setDeadline('');
          setStart('');
          setEnd('');
        },
        onError: (caught) => setError(errorText(caught) ?? RETRY_HINT),
      },
    );
  };

  return (
    <div className="rounded-2xl border border-gold-500/25 bg-night-900/80 p-6 shadow-2xl shadow-black/30">
      <h2 className="font-display text-2xl text-parchment">Nächste Ausgabe</h2>
      <p className="mt-1.5 text-sm text-ash-300">
        {newest
          ? `Aus ${newest.name}: Termine ein Jahr später, Ort, Parkzonen und Fristen übernommen. Leere Felder übernehmen den Wert.`
          : 'Termine, Ort, Parkzonen und Fristen der letzten Ausgabe werden übernommen.'}
      </p>
      <form noValidate aria-label="Nächste Ausgabe" onSubmit={submit} className="mt-5 flex flex-col gap-4">
        <LabelledInput
          label="Jahr"
          required
          inputMode="numeric"
          value={year}
          onChange={setYear}
          invalid={error !== null}
        />
        <LabelledInput label="Bewerbungsschluss" type="date" value={deadline} onChange={setDeadline} />
        <LabelledInput label="Beginn" type="datetime-local" value={start} onChange={setStart} />
        <LabelledInput label="Ende" type="datetime-local" value={end} onChange={setEnd} />
        <FormError error={error} />
        <Button type="submit" disabled={create.isPending} className="w-full py-3">
          {create.isPending ? (
            <>
              <Spinner />
              Wird angelegt...
            </>
          ) : (
            'Ausgabe anlegen'
          )}
        </Button>
      </form>
    </div>
  );
}

/** Name, place, dates, deadline, zones, periods, fee and visitor tickets of an edition that is not over. */
function EditionForm({ edition, onDone }: { edition: AdminEdition; onDone: () => void }) {
  const update = useUpdateEdition();
  const feeForm = useEditionFeeForm(edition.fee);
  const ticketsForm = useEditionTicketsForm(edition.visitorTickets);
  const [values, setValues] = useState({
    name: edition.name,
    place: edition.place,
    start: localAtVenue(edition.startsAt),
    end: localAtVenue(edition.endsAt),
    deadline: edition.applicationDeadline,
    zones: edition.parkingZones.map((zone) => `${zone.name}:${zone.capacity}`).join(', '),
    confirmDays: String(edition.confirmDays),
    reminderDays: String(edition.reminderDays),
    cutoffDays: String(edition.cutoffDays),
  });
  const [error, setError] = useState<string | null>(null);
  type Name = keyof typeof values;
  const field = (name: Name, label: string, type = 'text', hint?: string) => (
    <LabelledInput
      label={label}
      type={type}
      hint={hint}
      inputMode={type === 'number' ? 'numeric' : undefined}
      value={values[name]}
      onChange={(value) => setValues((before) => ({ ...before, [name]: value }))}
    />
  );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void save();
  };

  const save = async () => {
    setError(null);
    // Checked first: its messages show at its fields whatever else is wrong.
    const fee = await feeToSave(feeForm, edition.fee);
    const tickets = await ticketsToSave(ticketsForm, edition.visitorTickets);
    const parkingZones = parseParkingZones(values.zones);
    if (!parkingZones) {
      setError(EDITION_MESSAGES.zones);
      return;
    }
    const periods = [values.confirmDays, values.reminderDays, values.cutoffDays];
    if (periods.some((value) => !/^\d{1,3}$/.test(value.trim()))) {
      setError(EDITION_MESSAGES.days);
      return;
    }
    if (!fee) {
      setError(FEE_FORM_INVALID);
      return;
    }
    if (!tickets) {
      setError(TICKETS_FORM_INVALID);
      return;
    }
    update.mutate(
      {
        year: edition.year,
        name: values.name,
        place: values.place,
        start: venueMoment(values.start),
        end: venueMoment(values.end),
        deadline: values.deadline,
        parkingZones,
        confirmDays: Number(values.confirmDays),
        reminderDays: Number(values.reminderDays),
        cutoffDays: Number(values.cutoffDays),
        ...fee,
        ...tickets,
      },
      {
        onSuccess: (answer) => {
          notify.success('Ausgabe gespeichert', answer.message);
          onDone();
        },
        onError: (caught) =>
          setError(
            showFeeServerIssues(feeForm, caught)
              ? FEE_FORM_INVALID
              : showTicketsServerIssues(ticketsForm, caught)
                ? TICKETS_FORM_INVALID
                : (errorText(caught) ?? RETRY_HINT),
          ),
      },
    );
  };

  return (
    <form
      noValidate
      aria-label={`${edition.name} bearbeiten`}
      onSubmit={submit}
      className="flex flex-col gap-4 rounded-2xl border border-gold-500/25 bg-night-900/80 p-5"
    >
      <h3 className="font-display text-2xl text-parchment">{edition.name} bearbeiten</h3>
      <div className="grid gap-4 sm:grid-cols-2">
        {field('name', 'Name')}
        {field('place', 'Ort')}
        {field('deadline', 'Bewerbungsschluss', 'date')}
        {field('start', 'Beginn', 'datetime-local')}
        {field('end', 'Ende', 'datetime-local')}
        {field(
          'zones',
          'Parkzonen',
          'text',
          'Name:Kapazität, durch Kommas getrennt, in der Reihenfolge der Vergabe.',
        )}
        {field('confirmDays', 'Bestätigen binnen (Tage)', 'number')}
        {field('reminderDays', 'Erinnerung vor Ablauf (Tage)', 'number')}
        {field('cutoffDays', 'Nachrücken bis vor dem Termin (Tage)', 'number')}
      </div>
      <EditionFeeSection form={feeForm} year={edition.year} hadFee={edition.fee !== null} />
      <EditionVisitorTicketsSection
        form={ticketsForm}
        year={edition.year}
        hadTickets={edition.visitorTickets !== null}
      />
      <FormError error={error} />
      <div className="flex flex-wrap gap-3">
        <Button type="submit" disabled={update.isPending}>
          {update.isPending ? (
            <>
              <Spinner />
              Wird gespeichert...
            </>
          ) : (
            'Speichern'
          )}
        </Button>
        <Button type="button" variant="ghost" onClick={onDone}>
          Abbrechen
        </Button>
      </div>
    </form>
  );
}

/** A labelled input of the edition forms, its hint tied to it. */
function LabelledInput({
  label,
  value,
  onChange,
  type = 'text',
  hint,
  required = false,
  invalid = false,
  inputMode,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  type?: string;
  hint?: string;
  required?: boolean;
  invalid?: boolean;
  inputMode?: 'numeric';
}) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-ash-300">
        {label}
        {required ? <span className="text-gold-400"> *</span> : null}
      </label>
      <input
        id={id}
        type={type}
        value={value}
        inputMode={inputMode}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={invalid || undefined}
        aria-describedby={hint ? `${id}-hint` : undefined}
        className={inputClass}
      />
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-ash-400">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

/** The server's (or the form's own) refusal, read out when it appears. */
function FormError({ error }: { error: string | null }) {
  if (!error) return null;
  return (
    <p
      role="alert"
      className="rounded-lg border border-red-400/40 bg-red-950/40 px-3.5 py-2.5 text-sm text-red-100"
    >
      {error}
    </p>
  );
}
