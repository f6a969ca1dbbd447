import {
  AdminStatusUpdateSchema,
  CORRECTION_MESSAGES,
  EDITION_MESSAGES,
  isOverPhase,
  formatScore,
  type StatusHistoryEntry,
  venueDateTime,
} from '@schlosstreffen/shared';
import { useForm, useStore } from '@tanstack/react-form';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import * as v from 'valibot';
import { Button } from '../../../components/ui/button';
import { fieldError, inputClass } from '../../../components/ui/form-field';
import { Spinner } from '../../../components/ui/spinner';
import { StatusSelect } from './status-select';
import { TextAreaField } from '../../../components/ui/textarea';
import { errorText, notify } from '../../../components/ui/toaster';
import type { EarlierApplication, Owner, ReviewConflictRefusal, Vehicle } from '@schlosstreffen/shared/api';
import { isApiError } from '../../../lib/api';
import { useCurrentUser } from '../../../lib/current-user';
import { editionsQueryOptions } from '../editions-queries';
import { CorrectionForm } from './correction-form';
import { StatusBadge } from '../../vehicles/status-badge';
import { useAdminStatusMutation } from './admin-mutations';
import { vehicleHistoryQueryOptions } from './admin-queries';
import { earlierApplicationsQueryOptions } from './earlier-queries';
import { VehicleConsents } from './vehicle-consents';
import { VehicleMailList } from './vehicle-mails';
import { ReviewPanel } from './review-panel';
import { vehicleReviewQueryOptions } from './review-queries';

export const NOT_GIVEN = 'Nicht angegeben';
const COMMENT_MAX = 2000;
const SUCCESS = { title: 'Status aktualisiert', text: 'Der Fahrzeugstatus wurde erfolgreich aktualisiert' };
const FAILURE_FALLBACK = 'Fehler beim Aktualisieren des Status';

/** Why a review's scores are not shown: blind review (the server leaves them out). */
const HIDDEN_REVIEW =
  'Bewertung verborgen: Sichtbar für Admins und für Prüfende, die ihre eigene abgegeben haben.';

const ROLE_LABELS: Readonly<Record<string, string>> = {
  admin: 'Admin',
  reviewer: 'Prüfer',
  user: 'Bewerber',
};

/** A history date at the venue, "10.01.2026, 11:00 Uhr"; an unreadable one as sent. */
function formatHistoryDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : venueDateTime(date);
}

/** What the form edits: the shared schema's input without oldStatus (added when sending). */
type StatusFormValues = Omit<v.InferInput<typeof AdminStatusUpdateSchema>, 'oldStatus'>;

/** The score input: empty means none; anything else is checked by the shared schema (0–10, whole). */
function ScoreField({
  value,
  error,
  onChange,
  onBlur,
  disabled,
}: {
  value: number | null | undefined;
  error: string | undefined;
  onChange: (value: number | null) => void;
  onBlur: () => void;
  disabled: boolean;
}) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-ash-300">
        Bewertung (optional)
      </label>
      <input
        id={id}
        name="score"
        type="number"
        inputMode="numeric"
        min={0}
        max={10}
        step={1}
        value={value ?? ''}
        disabled={disabled}
        onBlur={onBlur}
        onChange={(event) => {
          const raw = event.target.value.trim();
          onChange(raw === '' ? null : Number(raw));
        }}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
        className={`${inputClass} sm:max-w-40`}
      />
      <p id={`${id}-hint`} className="text-xs text-ash-400">
        Ganze Zahl von 0 bis 10
      </p>
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-sm text-red-300">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** Status selector, internal note, optional score and 'Status aktualisieren'. */
function StatusForm({ vehicle }: { vehicle: Vehicle }) {
  const mutation = useAdminStatusMutation();
  const formRef = useRef<HTMLFormElement>(null);
  // The status the server had when the list was last read; sent as oldStatus (409 when stale).
  const currentStatus = useRef(vehicle.status);
  currentStatus.current = vehicle.status;
  // For screen readers: toasts outside the modal dialog are hidden from them while it is open.
  const [outcome, setOutcome] = useState('');
  const [refocus, setRefocus] = useState(false);

  const form = useForm({
    defaultValues: { status: vehicle.status, comment: '', score: null } as StatusFormValues,
    onSubmit: async ({ value, formApi }) => {
      const update = v.parse(AdminStatusUpdateSchema, { ...value, oldStatus: currentStatus.current });
      try {
        await mutation.mutateAsync({ vehicleId: vehicle.id, update });
        notify.success(SUCCESS.title, SUCCESS.text);
        setOutcome(`${SUCCESS.title}. ${SUCCESS.text}`);
        formApi.reset({ status: update.status, comment: '', score: null });
      } catch (error) {
        notify.error('Fehler', error, FAILURE_FALLBACK);
        setOutcome(`Fehler: ${errorText(error) ?? FAILURE_FALLBACK}`);
      } finally {
        setRefocus(true);
      }
    },
  });
  const chosen = useStore(form.store, (state) => state.values.status);
  const pending = mutation.isPending;
  const unchanged = chosen === vehicle.status;

  // The pressed button was disabled while saving (and stays so when the status now matches): once
  // the form is enabled again, keyboard users continue at the status selector.
  useEffect(() => {
    if (!refocus || pending) return;
    setRefocus(false);
    const active = document.activeElement;
    if (!active || active === document.body || !formRef.current?.contains(active)) {
      formRef.current?.querySelector<HTMLElement>('[data-part="trigger"]')?.focus();
    }
  }, [refocus, pending]);

  return (
    <form
      ref={formRef}
      aria-label="Status ändern"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void form.handleSubmit();
      }}
      className="flex flex-col gap-4"
    >
      <form.Field name="status">
        {(field) => (
          <StatusSelect
            value={field.state.value}
            onChange={field.handleChange}
            onBlur={field.handleBlur}
            disabled={pending}
            current={{ label: 'Aktuell', status: vehicle.status }}
          />
        )}
      </form.Field>
      <form.Field name="comment" validators={{ onChange: AdminStatusUpdateSchema.entries.comment }}>
        {(field) => (
          <TextAreaField
            field={field}
            label="Interne Notiz (optional)"
            rows={3}
            maxLength={COMMENT_MAX}
            disabled={pending}
          />
        )}
      </form.Field>
      <form.Field name="score" validators={{ onChange: AdminStatusUpdateSchema.entries.score }}>
        {(field) => (
          <ScoreField
            value={field.state.value}
            error={fieldError(field)}
            onChange={(value) => field.handleChange(value)}
            onBlur={field.handleBlur}
            disabled={pending}
          />
        )}
      </form.Field>
      <p role="status" className="sr-only">
        {outcome}
      </p>
      <div>
        <Button type="submit" disabled={unchanged || pending} className="w-full sm:w-auto">
          {pending ? (
            <>
              <Spinner />
              Aktualisiere...
            </>
          ) : (
            'Status aktualisieren'
          )}
        </Button>
      </div>
    </form>
  );
}

function HistoryItem({ entry }: { entry: StatusHistoryEntry }) {
  const role = ROLE_LABELS[entry.actorRole];
  return (
    <li className="relative border-l border-gold-500/30 pb-5 pl-5 last:pb-0">
      <span aria-hidden="true" className="absolute top-1.5 -left-[5px] size-2.5 rounded-full bg-gold-400" />
      <div className="flex flex-wrap items-center gap-2">
        {entry.kind === 'correction' ? (
          // An admin's correction of a past record: its note holds the reason.
          <span className="rounded-full border border-sky-400/40 bg-sky-500/10 px-2.5 py-0.5 text-xs font-semibold text-sky-100">
            {CORRECTION_MESSAGES.entry}
          </span>
        ) : null}
        {entry.kind === 'review' ? (
          <span className="rounded-full border border-gold-500/40 bg-gold-500/10 px-2.5 py-0.5 text-xs font-semibold text-gold-200">
            Bewertung abgegeben
          </span>
        ) : entry.kind === 'consent_withdrawn' ? (
          // A consent event: the status stayed as it was, the note names the consent.
          <span className="rounded-full border border-red-400/40 bg-red-500/10 px-2.5 py-0.5 text-xs font-semibold text-red-200">
            Einwilligung widerrufen
          </span>
        ) : (
          <>
            {entry.oldStatus ? (
              <>
                <StatusBadge status={entry.oldStatus} />
                <span aria-label="zu" className="text-ash-400">
                  →
                </span>
              </>
            ) : (
              <span className="text-xs text-ash-400">Angelegt als</span>
            )}
            <StatusBadge status={entry.newStatus} />
          </>
        )}
        {entry.score != null && entry.kind !== 'review' ? (
          <span className="rounded-full border border-gold-500/40 px-2 py-0.5 text-xs font-semibold text-gold-200">
            Bewertung {entry.score}/10
          </span>
        ) : null}
      </div>
      <p className="mt-1.5 text-xs text-ash-400">
        <time dateTime={entry.createdAt}>{formatHistoryDate(entry.createdAt)}</time> · von{' '}
        <span className="text-ash-300">{entry.actorName}</span>
        {role ? ` (${role})` : null}
      </p>
      {entry.commentInternal ? (
        <p className="mt-2 rounded-lg bg-night-800/80 px-3 py-2 text-sm whitespace-pre-line text-parchment">
          {entry.commentInternal}
        </p>
      ) : entry.kind === 'review' ? (
        <p className="mt-1.5 text-xs text-ash-400">{HIDDEN_REVIEW}</p>
      ) : null}
    </li>
  );
}

/** 'Änderungsverlauf': the status log with withdrawn consents, newest first. */
function History({ vehicleId }: { vehicleId: string }) {
  const history = useQuery(vehicleHistoryQueryOptions(vehicleId));
  if (history.isPending) {
    return (
      <p role="status" className="flex items-center gap-2 text-sm text-ash-300">
        <Spinner /> Verlauf wird geladen...
      </p>
    );
  }
  if (history.isError) {
    return (
      <div role="alert" className="flex flex-col items-start gap-3 text-sm text-ash-300">
        <p>
          Der Verlauf konnte nicht geladen werden. {errorText(history.error) ?? 'Ein Fehler ist aufgetreten.'}
        </p>
        <Button
          variant="secondary"
          className="px-4 py-1.5"
          disabled={history.isFetching}
          onClick={() => void history.refetch()}
        >
          {history.isFetching ? 'Lädt...' : 'Erneut versuchen'}
        </Button>
      </div>
    );
  }
  if (history.data.length === 0) return <p className="text-sm text-ash-300">Kein Änderungsverlauf</p>;
  return (
    <ol aria-label="Änderungsverlauf" className="ml-1">
      {history.data.map((entry) => (
        <HistoryItem key={entry.id} entry={entry} />
      ))}
    </ol>
  );
}

/**
 * 'Frühere Ausgaben': the owner's applications in other editions (status, score, start number, in
 * at the gate or not) and what changed since the car's application of the edition before.
 */
function Earlier({ vehicleId }: { vehicleId: string }) {
  const earlier = useQuery(earlierApplicationsQueryOptions(vehicleId));
  if (earlier.isPending) {
    return (
      <p role="status" className="flex items-center gap-2 text-sm text-ash-300">
        <Spinner /> Frühere Bewerbungen werden geladen...
      </p>
    );
  }
  if (earlier.isError) {
    return (
      <p role="alert" className="text-sm text-ash-300">
        Frühere Bewerbungen konnten nicht geladen werden.{' '}
        {errorText(earlier.error) ?? 'Ein Fehler ist aufgetreten.'}
      </p>
    );
  }
  const { applications, sameEdition, changes } = earlier.data;
  return (
    <div className="flex flex-col gap-4 text-sm">
      {applications.length === 0 ? (
        <p className="text-ash-300">Keine Bewerbungen in anderen Ausgaben.</p>
      ) : (
        <ApplicationList label="Bewerbungen in anderen Ausgaben" applications={applications} />
      )}
      {sameEdition.length ? (
        <div>
          <p className="font-semibold text-parchment">Weitere Bewerbungen dieser Ausgabe</p>
          <ApplicationList label="Weitere Bewerbungen dieser Ausgabe" applications={sameEdition} />
        </div>
      ) : null}
      {changes ? (
        <div>
          <p className="font-semibold text-parchment">Geändert seit {changes.since.name}</p>
          {changes.fields.length === 0 ? (
            <p className="mt-1 text-ash-300">Keine Änderungen an den Fahrzeugdaten.</p>
          ) : (
            <dl
              aria-label={`Geändert seit ${changes.since.name}`}
              className="mt-2 grid gap-x-4 gap-y-1 sm:grid-cols-[auto_1fr]"
            >
              {changes.fields.map((change) => (
                <div key={change.field} className="contents">
                  <dt className="text-ash-400">{change.label}</dt>
                  <dd className="text-parchment">
                    {change.before} → {change.after}
                  </dd>
                </div>
              ))}
            </dl>
          )}
          <p className="mt-2 text-ash-300">
            Fotos: {changes.photos.before} → {changes.photos.after}
            {photoParts(changes.photos)}
          </p>
        </div>
      ) : null}
    </div>
  );
}

/** The owner's other applications: edition, title, status, score (as blind review allows), start number. */
function ApplicationList({ label, applications }: { label: string; applications: EarlierApplication[] }) {
  return (
    <ul aria-label={label} className="mt-2 flex flex-col gap-2 first:mt-0">
      {applications.map((application) => (
        <li key={application.id} className="rounded-lg border border-white/10 px-3 py-2">
          <p className="font-semibold text-parchment">
            {application.edition.name}: {application.title}{' '}
            <span className="font-normal text-ash-400">
              ({application.sameCar ? 'dieses Fahrzeug' : 'anderes Fahrzeug'})
            </span>
          </p>
          <p className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-ash-300">
            <StatusBadge status={application.status} />
            <span>
              Bewertung{' '}
              {application.scoreHidden
                ? 'verborgen'
                : application.score === null
                  ? '–'
                  : formatScore(application.score)}
            </span>
            {application.startNumber !== null ? <span>Startnummer {application.startNumber}</span> : null}
            <span>{application.checkedIn ? 'Eingecheckt' : 'Nicht eingecheckt'}</span>
          </p>
        </li>
      ))}
    </ul>
  );
}

/**
 * 'Kontaktdaten Bewerber' with mailto and tel links; 'Benutzerdaten nicht verfügbar' without an
 * owner, NOT_GIVEN for a missing name or phone.
 */
function ContactDetails({ owner }: { owner: Owner | null | undefined }) {
  if (!owner) return <p className="text-sm text-ash-300">Benutzerdaten nicht verfügbar</p>;
  const name = [owner.firstName, owner.lastName]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(' ');
  const phone = owner.phone?.trim();
  const linkClass =
    'break-all text-gold-200 underline decoration-gold-500/40 underline-offset-2 hover:text-gold-300';
  return (
    <dl className="grid gap-3 text-sm sm:grid-cols-[auto_1fr] sm:gap-x-6">
      <dt className="text-ash-400">Name</dt>
      <dd className="-mt-2 text-parchment sm:mt-0">{name || NOT_GIVEN}</dd>
      <dt className="text-ash-400">E-Mail</dt>
      <dd className="-mt-2 sm:mt-0">
        <a href={`mailto:${owner.email}`} className={linkClass}>
          {owner.email}
        </a>
      </dd>
      <dt className="text-ash-400">Telefon</dt>
      <dd className="-mt-2 sm:mt-0">
        {phone ? (
          <a href={`tel:${phone.replace(/[^\d+]/g, '')}`} className={linkClass}>
            {phone}
          </a>
        ) : (
          <span className="text-parchment">{NOT_GIVEN}</span>
        )}
      </dd>
    </dl>
  );
}

function Block({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="rounded-xl border border-white/10 bg-night-950/60 p-4 sm:p-5">
      <h3 className="font-display text-lg text-parchment">{title}</h3>
      <div className="mt-4">{children}</div>
    </section>
  );
}

/** The server's refusal of staff acts on one's own application or one of a person one is biased towards. */
function conflictRefusal(error: unknown): ReviewConflictRefusal | null {
  if (!isApiError(error) || error.status !== 403) return null;
  const conflict = error.body?.conflict;
  if (conflict !== 'own' && conflict !== 'bias') return null;
  const otherAdmin = error.body?.otherAdmin;
  return {
    message: error.serverMessage,
    conflict,
    otherAdmin: typeof otherAdmin === 'boolean' ? otherAdmin : null,
  };
}

/**
 * Admin tab (admins and reviewers): the review, status change, then history, the mails about the
 * application, the applicant's contact data and the consents recorded for the vehicle. On one's own
 * application, or one of a person one declared a bias towards, the server refuses every staff act:
 * the tab says why (and, to an admin, whether another admin decides) and shows only the contact
 * data and the consents. The other blocks load once the review did, so none asks in vain. Once the
 * application's edition is over its record is closed: admins see 'Korrigieren' (status or check-in,
 * with a reason) instead of the status form, reviewers that the record stays as it was.
 */
export function AdminPanel({ vehicle }: { vehicle: Vehicle }) {
  const review = useQuery(vehicleReviewQueryOptions(vehicle.id));
  const refusal = review.isError ? conflictRefusal(review.error) : null;
  const closed = useClosedEdition(vehicle);
  const { data: user } = useCurrentUser();
  if (refusal) {
    return (
      <div className="flex flex-col gap-4">
        <Block title={refusal.conflict === 'own' ? 'Eigene Bewerbung' : 'Befangenheit'}>
          <p
            role="note"
            className={`rounded-lg border px-3 py-2 text-sm ${
              refusal.otherAdmin === false
                ? 'border-red-400/40 bg-red-500/10 text-red-100'
                : 'border-gold-500/40 bg-gold-500/10 text-gold-100'
            }`}
          >
            {refusal.message}
          </p>
        </Block>
        <OwnerBlocks vehicle={vehicle} />
      </div>
    );
  }
  if (review.isPending) {
    return (
      <Block title="Prüfung">
        <ReviewPanel vehicleId={vehicle.id} />
      </Block>
    );
  }
  return (
    <div className="flex flex-col gap-4">
      <Block title="Prüfung">
        <ReviewPanel vehicleId={vehicle.id} closed={closed !== null} />
      </Block>
      {closed === null ? (
        <Block title="Status ändern">
          <StatusForm vehicle={vehicle} />
        </Block>
      ) : user?.role === 'admin' ? (
        <Block title="Korrigieren">
          <CorrectionForm vehicle={vehicle} />
        </Block>
      ) : (
        <Block title="Abgeschlossen">
          <p
            role="note"
            className="rounded-lg border border-white/15 bg-white/5 px-3 py-2 text-sm text-ash-200"
          >
            {EDITION_MESSAGES.frozenForStaff(closed)}
          </p>
        </Block>
      )}
      <Block title="Änderungsverlauf">
        <History vehicleId={vehicle.id} />
      </Block>
      <Block title="E-Mails">
        <VehicleMailList vehicleId={vehicle.id} />
      </Block>
      <Block title="Frühere Ausgaben">
        <Earlier vehicleId={vehicle.id} />
      </Block>
      <OwnerBlocks vehicle={vehicle} />
    </div>
  );
}

/**
 * The name of the application's edition when it is over (its record is frozen; admins correct it
 * with a reason), else null. Read from the edition switch's list, which names each edition's phase.
 */
function useClosedEdition(vehicle: Vehicle): string | null {
  const editions = useQuery(editionsQueryOptions);
  const edition = editions.data?.editions.find((item) => item.year === vehicle.edition?.year);
  return edition && isOverPhase(edition.phase) ? edition.name : null;
}

/** The applicant's contact data and the consents recorded for the vehicle. */
function OwnerBlocks({ vehicle }: { vehicle: Vehicle }) {
  return (
    <>
      <Block title="Kontaktdaten Bewerber">
        <ContactDetails owner={vehicle.user} />
      </Block>
      <Block title="Einwilligungen">
        <VehicleConsents vehicleId={vehicle.id} />
      </Block>
    </>
  );
}

/** ' (1 übernommen, 1 neu, 1 entfernt)': which photos changed since the car's last application. */
function photoParts(photos: { carried: number; added: number; removed: number }): string {
  const parts = [
    photos.carried ? `${photos.carried} übernommen` : null,
    photos.added ? `${photos.added} neu` : null,
    photos.removed ? `${photos.removed} entfernt` : null,
  ].filter(Boolean);
  return parts.length ? ` (${parts.join(', ')})` : '';
}
