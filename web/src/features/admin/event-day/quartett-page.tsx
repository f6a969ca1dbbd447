import {
  QUARTETT_CARD_MM,
  QUARTETT_SET_STATUS_LABELS,
  QuartettSetCreateSchema,
  type QuartettSetStatus,
} from '@schlosstreffen/shared';
import { useForm, useStore } from '@tanstack/react-form';
import { useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import * as v from 'valibot';
import { Button, buttonClass } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { TextField } from '../../../components/ui/form-field';
import { ProgressBar } from '../../../components/ui/progress-bar';
import { LoadError, Loading } from '../../../components/ui/query-states';
import { Spinner } from '../../../components/ui/spinner';
import { formatIso } from '../../../lib/date-format';
import { errorText, notify, RETRY_HINT } from '../../../components/ui/toaster';
import { CardsIcon, DownloadIcon, LockIcon } from '../admin-icons';
import { AdminOnly } from '../admin-layout';
import { useFinishedToasts } from './finished-toasts';
import { useCreateQuartettSet, useReleaseQuartettSet } from './quartett-mutations';
import type { QuartettSet } from '@schlosstreffen/shared/api';
import { isQuartettSetRunning, quartettSetsQueryOptions } from './quartett-queries';

const STATUS_TONES: Record<QuartettSetStatus, string> = {
  queued: 'border-white/15 bg-white/5 text-ash-300',
  rendering: 'border-gold-500/40 bg-gold-500/10 text-gold-200',
  ready: 'border-emerald-400/40 bg-emerald-500/10 text-emerald-200',
  failed: 'border-red-400/40 bg-red-500/10 text-red-200',
};

const badgeClass =
  'inline-flex items-center gap-1.5 rounded-full border px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap';

/** /admin/quartett: the printed car quartett's exports (admins only). */
export function AdminQuartettPage() {
  return (
    <AdminOnly>
      <QuartettScreen />
    </AdminOnly>
  );
}

function QuartettScreen() {
  const sets = useQuery(quartettSetsQueryOptions);
  useFinishedToasts(sets.data, isQuartettSetRunning, announceFinished);
  const [releasing, setReleasing] = useState<QuartettSet | null>(null);
  const release = useReleaseQuartettSet();
  // The 'Freigeben' button that opened the dialog; after a release it is gone, so focus goes to the set.
  const releaseTrigger = useRef<{ element: HTMLElement; setId: string } | null>(null);
  const focusAfterRelease = (): HTMLElement | null => {
    const trigger = releaseTrigger.current;
    if (!trigger || trigger.element.isConnected) return null;
    return document.getElementById(setHeadingId(trigger.setId));
  };
  const { width, height, bleed } = QUARTETT_CARD_MM;

  const confirmRelease = () => {
    if (!releasing) return;
    release.mutate(releasing.id, {
      onSuccess: (set) =>
        notify.success(
          'Quartett-Satz freigegeben',
          `Version ${set.version} ist freigegeben. Die Daten der enthaltenen Fahrzeuge sind jetzt gesperrt.`,
        ),
      onError: (error) => notify.error('Freigabe fehlgeschlagen', error, RETRY_HINT),
      onSettled: () => setReleasing(null),
    });
  };

  return (
    <section className="flex-1">
      <header className="max-w-3xl">
        <p className="text-xs tracking-[0.3em] text-gold-400 uppercase">Adminbereich</p>
        <h1 className="mt-2 font-display text-4xl text-parchment">Auto-Quartett</h1>
        <p className="mt-3 text-sm text-ash-300">
          Jeder Export erstellt eine neue Version des Quartetts als Druck-PDF: eine Karte je bestätigtem
          Fahrzeug mit seinen technischen Daten und dem Namen des Besitzers. Nach der Freigabe einer Version
          sind die Daten ihrer Fahrzeuge für den Druck festgeschrieben.
        </p>
        <ul aria-label="Druckformat" className="mt-4 flex flex-wrap gap-2 text-xs text-ash-300">
          {[
            `Karten ${width} × ${height} mm`,
            `${bleed} mm Beschnitt`,
            'A4-Bögen mit Schnittmarken',
            'Rückseiten für Duplexdruck',
          ].map((fact) => (
            <li key={fact} className="rounded-full border border-white/10 bg-night-900/80 px-3 py-1">
              {fact}
            </li>
          ))}
        </ul>
      </header>

      <div className="mt-8 grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem] lg:grid-rows-[auto_1fr] lg:gap-8">
        <div className="lg:col-start-2 lg:row-start-1">
          <ExportForm />
        </div>

        <div className="lg:col-start-1 lg:row-span-2 lg:row-start-1">
          <h2 className="font-display text-2xl text-parchment">Versionen</h2>
          <div className="mt-4">
            {sets.isPending ? (
              <Loading label="Versionen werden geladen...">
                <div className="flex flex-col gap-4">
                  {[0, 1].map((index) => (
                    <div
                      key={index}
                      aria-hidden="true"
                      data-testid="quartett-set-skeleton"
                      className="h-44 animate-pulse rounded-2xl border border-white/10 bg-night-900/80 motion-reduce:animate-none"
                    />
                  ))}
                </div>
              </Loading>
            ) : sets.isError ? (
              <LoadError
                title="Versionen konnten nicht geladen werden"
                query={sets}
                headingLevel="h3"
                compact
              />
            ) : sets.data.length === 0 ? (
              <div className="flex flex-col items-center rounded-2xl border border-dashed border-gold-500/30 bg-night-900/60 px-6 py-12 text-center">
                <CardsIcon className="size-12 text-gold-400" />
                <h3 className="mt-5 font-display text-xl text-parchment">Noch keine Exporte</h3>
                <p className="mt-2 max-w-sm text-sm text-ash-300">
                  Starten Sie den ersten Export mit einem Titel. Die Karten aller bestätigten Fahrzeuge werden
                  dann als Druck-PDF erstellt.
                </p>
              </div>
            ) : (
              <ol aria-label="Versionen" className="flex flex-col gap-4">
                {sets.data.map((set) => (
                  <li key={set.id}>
                    <QuartettSetCard
                      set={set}
                      onRelease={(trigger) => {
                        releaseTrigger.current = { element: trigger, setId: set.id };
                        setReleasing(set);
                      }}
                    />
                  </li>
                ))}
              </ol>
            )}
          </div>
        </div>

        <div className="lg:col-start-2 lg:row-start-2 lg:self-start">
          <QueueLinkCard />
        </div>
      </div>

      <ConfirmDialog
        open={releasing !== null}
        onOpenChange={(open) => {
          if (!open) setReleasing(null);
        }}
        title="Quartett-Satz freigeben?"
        finalFocusEl={focusAfterRelease}
        confirmLabel="Freigeben"
        pendingLabel="Wird freigegeben..."
        pending={release.isPending}
        onConfirm={confirmRelease}
      >
        {releasing ? (
          <>
            Version {releasing.version} „{releasing.title}“ wird für den Druck freigegeben. Die Daten und
            Bilder{' '}
            {releasing.cardCount === 1
              ? 'des enthaltenen Fahrzeugs werden'
              : `der ${releasing.cardCount} enthaltenen Fahrzeuge werden`}{' '}
            damit gesperrt: Besitzer und Team können sie nicht mehr ändern. Statusänderungen bleiben möglich.
            Die Freigabe lässt sich nicht rückgängig machen.
          </>
        ) : null}
      </ConfirmDialog>
    </section>
  );
}

function announceFinished(set: QuartettSet) {
  if (set.status === 'ready') {
    notify.success(
      'Export fertig',
      `Version ${set.version} mit ${cardCountText(set.cardCount)} kann heruntergeladen werden.`,
    );
  } else if (set.status === 'failed') {
    notify.error('Export fehlgeschlagen', undefined, set.error ?? RETRY_HINT);
  }
}

const cardCountText = (count: number) => (count === 1 ? '1 Karte' : `${count} Karten`);

function ExportForm() {
  const create = useCreateQuartettSet();
  const [serverError, setServerError] = useState<string | null>(null);
  const form = useForm({
    defaultValues: { title: '' },
    validators: { onChange: QuartettSetCreateSchema },
    onSubmit: async ({ value }) => {
      setServerError(null);
      try {
        const set = await create.mutateAsync(v.parse(QuartettSetCreateSchema, value));
        notify.success('Export gestartet', `Version ${set.version} „${set.title}“ wird erstellt.`);
        form.reset();
      } catch (error) {
        setServerError(errorText(error) ?? RETRY_HINT);
        notify.error('Export konnte nicht gestartet werden', error, RETRY_HINT);
      }
    },
  });
  const pending = useStore(form.store, (state) => state.isSubmitting);

  return (
    <div className="rounded-2xl border border-gold-500/25 bg-night-900/80 p-6 shadow-2xl shadow-black/30">
      <h2 className="font-display text-2xl text-parchment">Neuer Export</h2>
      <p className="mt-1.5 text-sm text-ash-300">
        Erstellt eine neue Version mit allen Fahrzeugen im Status „Bestätigt“.
      </p>
      <form
        noValidate
        aria-label="Neuer Export"
        className="mt-5 flex flex-col gap-4"
        onSubmit={(event) => {
          event.preventDefault();
          event.stopPropagation();
          const element = event.currentTarget;
          void form.handleSubmit().then(() => {
            element.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
          });
        }}
      >
        <form.Field name="title" listeners={{ onChange: () => setServerError(null) }}>
          {(field) => (
            <TextField
              field={field}
              label="Titel"
              required
              maxLength={200}
              autoComplete="off"
              placeholder="z. B. Schlosstreffen 2026"
              hint="Steht auf den Kartenrückseiten und am Rand der Druckbögen."
            />
          )}
        </form.Field>
        {serverError ? (
          <p
            role="alert"
            className="rounded-lg border border-red-400/40 bg-red-950/40 px-3.5 py-2.5 text-sm text-red-100"
          >
            {serverError}
          </p>
        ) : null}
        <Button type="submit" disabled={pending} className="w-full py-3">
          {pending ? (
            <>
              <Spinner />
              Wird gestartet...
            </>
          ) : (
            'Export starten'
          )}
        </Button>
      </form>
    </div>
  );
}

const setHeadingId = (id: string) => `quartett-set-${id}`;

function QuartettSetCard({
  set,
  onRelease,
}: {
  set: QuartettSet;
  onRelease: (trigger: HTMLElement) => void;
}) {
  const running = isQuartettSetRunning(set);
  const headingId = setHeadingId(set.id);
  return (
    <article
      aria-labelledby={headingId}
      className="rounded-2xl border border-white/10 bg-night-900/80 p-5 shadow-xl shadow-black/20 sm:p-6"
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="text-xs font-semibold tracking-[0.2em] text-gold-400 uppercase">
            Version {set.version}
          </p>
          <h3
            id={headingId}
            tabIndex={-1}
            className="mt-1 font-display text-xl break-words text-parchment focus:outline-none"
          >
            <span className="sr-only">Version {set.version}: </span>
            {set.title}
          </h3>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <span className={`${badgeClass} ${STATUS_TONES[set.status]}`}>
            {set.status === 'rendering' ? <Spinner className="size-3" /> : null}
            {QUARTETT_SET_STATUS_LABELS[set.status]}
          </span>
          {set.releasedAt ? (
            <span className={`${badgeClass} border-emerald-400/40 bg-emerald-500/15 text-emerald-200`}>
              <LockIcon className="size-3" />
              Freigegeben
            </span>
          ) : null}
          {set.containsDeletedAccount ? (
            <span className={`${badgeClass} border-red-400/40 bg-red-500/10 text-red-200`}>
              Enthält gelöschtes Konto
            </span>
          ) : null}
        </div>
      </div>

      {set.containsDeletedAccount ? (
        <p className="mt-3 text-sm text-ash-300">
          Eine Person mit Fahrzeug in dieser Version hat ihr Konto inzwischen gelöscht. Drucken Sie diese
          Version nicht nach; ein neuer Export enthält nur noch bestehende Konten.
        </p>
      ) : null}

      <dl className="mt-4 grid grid-cols-2 gap-x-4 gap-y-3 text-sm sm:grid-cols-4">
        <Fact term="Karten" value={String(set.cardCount)} />
        <Fact term="Erstellt" value={formatIso(set.createdAt, 'dateTime')} />
        <Fact term="Fertiggestellt" value={formatIso(set.finishedAt, 'dateTime')} />
        <Fact term="Freigegeben" value={formatIso(set.releasedAt, 'dateTime')} />
      </dl>

      {running ? (
        <ProgressBar
          className="mt-5"
          value={set.status === 'queued' ? 0 : set.progress}
          max={100}
          label={`Fortschritt Version ${set.version}`}
          valueText={set.status === 'queued' ? 'Wartet auf den Start' : `${set.progress} %`}
        />
      ) : null}

      {set.status === 'failed' ? (
        <div className="mt-5 rounded-xl border border-red-400/30 bg-red-950/40 px-4 py-3 text-sm">
          <p className="font-semibold text-red-100">Der Export ist fehlgeschlagen.</p>
          <p className="mt-1 break-words text-red-100/90">{set.error ?? 'Ein Fehler ist aufgetreten.'}</p>
          <p className="mt-1 text-ash-300">Starten Sie einen neuen Export, sobald das Problem behoben ist.</p>
        </div>
      ) : null}

      {set.status === 'ready' && (set.downloadUrl || !set.releasedAt) ? (
        <div className="mt-5 flex flex-col gap-3 sm:flex-row sm:flex-wrap">
          {set.downloadUrl ? (
            <a href={set.downloadUrl} download={set.downloadName} className={buttonClass('secondary')}>
              <DownloadIcon className="size-4" />
              PDF herunterladen<span className="sr-only"> (Version {set.version})</span>
            </a>
          ) : null}
          {!set.releasedAt ? (
            <Button
              variant="ghost"
              className="border border-white/10"
              onClick={(event) => onRelease(event.currentTarget)}
            >
              <LockIcon className="size-4" />
              Freigeben<span className="sr-only"> (Version {set.version})</span>
            </Button>
          ) : null}
        </div>
      ) : null}
    </article>
  );
}

function Fact({ term, value }: { term: string; value: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-ash-400">{term}</dt>
      <dd className="mt-0.5 text-parchment tabular-nums">{value}</dd>
    </div>
  );
}

function QueueLinkCard() {
  return (
    <div className="rounded-2xl border border-white/10 bg-night-900/80 p-6">
      <h2 className="font-display text-xl text-parchment">Hintergrundaufträge</h2>
      <p className="mt-1.5 text-sm text-ash-300">
        Exporte, E-Mails und Bildverarbeitung laufen in Warteschlangen. Dort sehen Sie hängende oder
        fehlgeschlagene Aufträge und können sie erneut anstoßen.
      </p>
      {/* Served by the API (bull-board): a full page load, not a client route. */}
      <a href="/admin/queues" className={buttonClass('ghost', 'mt-4 border border-white/10')}>
        Warteschlangen öffnen
        <span aria-hidden="true">→</span>
      </a>
    </div>
  );
}
