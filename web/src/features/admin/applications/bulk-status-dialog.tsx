import * as v from 'valibot';
import { Dialog } from '@ark-ui/react/dialog';
import { Portal } from '@ark-ui/react/portal';
import { BulkStatusApplySchema, bulkResult, type VehicleStatus } from '@schlosstreffen/shared';
import type { BulkStatusPreview, BulkStatusResult, BulkStatusRowResult } from '@schlosstreffen/shared/api';
import { useForm } from '@tanstack/react-form';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Button } from '../../../components/ui/button';
import { XMarkIcon } from '../../../components/ui/icons';
import { ProgressBar } from '../../../components/ui/progress-bar';
import { LoadError } from '../../../components/ui/query-states';
import { Spinner } from '../../../components/ui/spinner';
import { TextAreaField } from '../../../components/ui/textarea';
import { errorText } from '../../../components/ui/toaster';
import { StatusBadge } from '../../vehicles/status-badge';
import { invalidateVehicles } from '../../vehicles/vehicle-queries';
import {
  applyInChunks,
  BulkApplyError,
  changesLine,
  fetchBulkPreview,
  mailsHeading,
  mailsLine,
  previewBody,
  resultLine,
  selectedCount,
  type BulkProgress,
  type BulkSelection,
} from './bulk-status';
import { useChosenEdition } from '../edition-switch';

const COMMENT_MAX = 2000;

type Phase =
  | { kind: 'preview' }
  | { kind: 'applying'; progress: BulkProgress }
  | { kind: 'done'; result: BulkStatusResult }
  | { kind: 'stopped'; error: unknown; answered: BulkStatusRowResult[] };

const listClass =
  'mt-2 max-h-64 divide-y divide-white/5 overflow-y-auto overscroll-contain rounded-xl border border-white/10 bg-night-950/60';

function Block({ title, children }: { title: ReactNode; children: ReactNode }) {
  return (
    <section className="flex flex-col">
      <h3 className="text-sm font-semibold text-parchment">{title}</h3>
      {children}
    </section>
  );
}

/** The preview: what changes, the mails and their recipients, rows without a mail and rows left out. */
function PreviewBody({ preview }: { preview: BulkStatusPreview }) {
  const mailed = preview.changes.filter((row) => row.mail);
  const quiet = preview.changes.filter((row) => !row.mail);
  const mail = mailed[0]?.mail;
  return (
    <div className="flex flex-col gap-5">
      <p className="text-sm text-ash-300">{changesLine(preview)}</p>
      <Block title={mailsHeading(preview.mails)}>
        {mail ? (
          <>
            <p className="mt-1 text-xs text-ash-400">
              {mail.kind} · Betreff: <span className="text-ash-300">„{mail.subject}“</span>
            </p>
            <ul aria-label="Empfänger" tabIndex={0} className={listClass}>
              {mailed.map((row) => (
                <li
                  key={row.id}
                  className="flex flex-col gap-0.5 px-3 py-2 sm:flex-row sm:items-baseline sm:gap-3"
                >
                  <span className="min-w-0 truncate text-sm text-parchment">{row.owner.name}</span>
                  <span className="min-w-0 truncate text-xs text-ash-400">{row.owner.email}</span>
                  <span className="min-w-0 truncate text-xs text-ash-400 sm:ml-auto">{row.title}</span>
                </li>
              ))}
            </ul>
          </>
        ) : null}
      </Block>
      {quiet.length > 0 ? (
        <Block title={`Ohne E-Mail (${quiet.length})`}>
          <ul aria-label="Ohne E-Mail" tabIndex={0} className={listClass}>
            {quiet.map((row) => (
              <li key={row.id} className="px-3 py-2 text-sm">
                <span className="text-parchment">{row.title}</span>{' '}
                <span className="text-ash-400">({row.owner.name})</span>
                <p className="text-xs text-ash-400">{row.noMail}</p>
              </li>
            ))}
          </ul>
        </Block>
      ) : null}
      {preview.skipped.length > 0 ? (
        <Block title={`Übersprungen (${preview.skipped.length})`}>
          <ul aria-label="Übersprungen" tabIndex={0} className={listClass}>
            {preview.skipped.map((row) => (
              <li key={row.id} className="flex flex-wrap items-center gap-2 px-3 py-2 text-sm">
                <span className="text-parchment">{row.title ?? 'Unbekannte Bewerbung'}</span>
                {row.status ? <StatusBadge status={row.status} /> : null}
                <span className="w-full text-xs text-ash-400">{row.reason}</span>
              </li>
            ))}
          </ul>
        </Block>
      ) : null}
      {preview.placesFreed > 0 ? (
        <p className="rounded-xl border border-gold-500/30 bg-gold-500/10 px-4 py-3 text-sm text-gold-100">
          {preview.placesFreed === 1 ? 'Ein Platz wird' : `${preview.placesFreed} Plätze werden`} frei. Ist
          das automatische Nachrücken an, lädt das System Fahrzeuge von der Warteliste nach – sie erhalten
          ihre Einladung zusätzlich.
        </p>
      ) : null}
    </div>
  );
}

/** The outcome: counts, mails, and every row refused with its reason. */
function ResultBody({ result }: { result: BulkStatusResult }) {
  const refused = result.rows.filter((row) => row.outcome === 'refused');
  return (
    <div className="flex flex-col gap-4">
      <div role="status" className="rounded-xl border border-white/10 bg-night-950/60 px-4 py-3">
        <p className="font-display text-xl text-parchment">{resultLine(result)}</p>
        <p className="mt-1 text-sm text-ash-300">{mailsLine(result)}</p>
      </div>
      {refused.length > 0 ? (
        <Block title={`Abgelehnt (${refused.length})`}>
          <ul aria-label="Abgelehnt" tabIndex={0} className={listClass}>
            {refused.map((row) => (
              <li key={row.id} className="px-3 py-2 text-sm">
                <span className="text-parchment">{row.title ?? 'Unbekannte Bewerbung'}</span>
                <p className="text-xs text-red-200">{row.reason}</p>
              </li>
            ))}
          </ul>
        </Block>
      ) : null}
    </div>
  );
}

/**
 * 'Status ändern…' of the dashboard's selection: the server's preview (how many change, the mails
 * and to whom, what is left out and why), an optional internal note, 'Bestätigen'; then the
 * progress chunk by chunk and the outcome per row. A change that stopped (network, server) can be
 * sent again: rows already changed are not changed or mailed twice.
 */
/** The note's German message when it breaks the shared rule (too long), else nothing. */
function commentError(value: string): string | undefined {
  const result = v.safeParse(BulkStatusApplySchema.entries.comment, value);
  return result.success ? undefined : result.issues[0].message;
}

export function BulkStatusDialog({
  open,
  onOpenChange,
  selection,
  target,
  onFinished,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  selection: BulkSelection;
  target: VehicleStatus;
  /** After a change went through (wholly or partly) and the dialog closes: the selection is done. */
  onFinished: () => void;
}) {
  const queryClient = useQueryClient();
  const edition = useChosenEdition();
  const [phase, setPhase] = useState<Phase>({ kind: 'preview' });
  const preview = useQuery({
    queryKey: ['admin', 'bulk-status-preview', edition, previewBody(selection, target)],
    queryFn: () => fetchBulkPreview(selection, target),
    enabled: open,
    staleTime: 0,
    gcTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
  });
  const form = useForm({
    defaultValues: { comment: '' },
    onSubmit: ({ value }) => run(value.comment, preview.data?.changes ?? [], []),
  });

  async function run(
    comment: string,
    changes: readonly { id: string; oldStatus: VehicleStatus }[],
    answeredBefore: BulkStatusRowResult[],
  ) {
    setPhase({
      kind: 'applying',
      progress: { done: answeredBefore.length, total: answeredBefore.length + changes.length },
    });
    try {
      const result = await applyInChunks(changes, target, comment, ({ done }) =>
        setPhase({
          kind: 'applying',
          progress: { done: answeredBefore.length + done, total: answeredBefore.length + changes.length },
        }),
      );
      setPhase({ kind: 'done', result: bulkResult(target, [...answeredBefore, ...result.rows]) });
    } catch (error) {
      const answered = error instanceof BulkApplyError ? error.answered : [];
      setPhase({
        kind: 'stopped',
        error: error instanceof BulkApplyError ? error.cause : error,
        answered: [...answeredBefore, ...answered],
      });
    } finally {
      await invalidateVehicles(queryClient);
    }
  }

  const busy = phase.kind === 'applying';
  const finished = phase.kind === 'done' || (phase.kind === 'stopped' && phase.answered.length > 0);
  const close = (next: boolean) => {
    if (busy) return;
    onOpenChange(next);
    if (!next && finished) onFinished();
  };
  const count = selectedCount(selection);
  const data = preview.data;

  return (
    <Dialog.Root
      open={open}
      onOpenChange={(details) => close(details.open)}
      closeOnInteractOutside={false}
      closeOnEscape={!busy}
      lazyMount
      unmountOnExit
      onExitComplete={() => setPhase({ kind: 'preview' })}
    >
      <Portal>
        <Dialog.Backdrop className="fixed inset-0 z-50 bg-black/75 backdrop-blur-sm" />
        <Dialog.Positioner className="fixed inset-0 z-50 flex items-end justify-center sm:items-center sm:p-6">
          <Dialog.Content className="flex max-h-[100dvh] w-full max-w-2xl flex-col overflow-hidden border border-white/10 bg-night-900 shadow-2xl shadow-black/60 focus:outline-none sm:max-h-[90dvh] sm:rounded-2xl">
            <header className="flex items-start justify-between gap-4 border-b border-white/10 px-5 pt-5 pb-4 sm:px-6">
              <div className="min-w-0">
                <Dialog.Title className="font-display text-2xl leading-tight text-parchment">
                  Status ändern
                </Dialog.Title>
                <Dialog.Description className="mt-1.5 flex flex-wrap items-center gap-2 text-sm text-ash-300">
                  {count === 1 ? '1 Bewerbung' : `${count} Bewerbungen`} <span aria-hidden="true">→</span>
                  <span className="sr-only">neuer Status:</span>
                  <StatusBadge status={target} />
                </Dialog.Description>
              </div>
              <Dialog.CloseTrigger
                aria-label="Schließen"
                title="Schließen"
                disabled={busy}
                className="inline-flex size-9 shrink-0 items-center justify-center rounded-full border border-white/10 text-ash-300 transition-colors hover:border-gold-400/60 hover:text-parchment disabled:opacity-40"
              >
                <XMarkIcon className="size-4" />
              </Dialog.CloseTrigger>
            </header>

            <form
              noValidate
              aria-label="Status mehrerer Bewerbungen ändern"
              className="flex min-h-0 flex-1 flex-col"
              onSubmit={(event) => {
                event.preventDefault();
                void form.handleSubmit();
              }}
            >
              <div className="min-h-0 flex-1 overflow-y-auto overscroll-contain px-5 py-5 sm:px-6">
                {phase.kind === 'preview' ? (
                  preview.isPending ? (
                    <p role="status" className="flex items-center gap-3 py-8 text-sm text-ash-300">
                      <Spinner /> Vorschau wird berechnet...
                    </p>
                  ) : preview.isError ? (
                    <LoadError title="Vorschau nicht möglich" query={preview} headingLevel="h3" compact />
                  ) : data ? (
                    <div className="flex flex-col gap-5">
                      <PreviewBody preview={data} />
                      {data.changes.length > 0 ? (
                        <form.Field
                          name="comment"
                          validators={{ onChange: ({ value }) => commentError(value) }}
                        >
                          {(field) => (
                            <TextAreaField
                              field={field}
                              label="Interne Notiz (optional)"
                              hint="Steht im Änderungsverlauf jeder Bewerbung, nicht in den E-Mails."
                              rows={2}
                              maxLength={COMMENT_MAX}
                            />
                          )}
                        </form.Field>
                      ) : null}
                    </div>
                  ) : null
                ) : phase.kind === 'applying' ? (
                  <div className="py-6">
                    <ProgressBar
                      label="Status wird geändert..."
                      value={phase.progress.done}
                      max={Math.max(phase.progress.total, 1)}
                      valueText={`${phase.progress.done} von ${phase.progress.total}`}
                    />
                    <p className="mt-3 text-xs text-ash-400">
                      Jede Bewerbung wird einzeln geändert; bitte das Fenster offen lassen.
                    </p>
                  </div>
                ) : phase.kind === 'done' ? (
                  <ResultBody result={phase.result} />
                ) : (
                  <div className="flex flex-col gap-4">
                    <div role="alert" className="rounded-xl border border-red-400/30 bg-red-950/30 px-4 py-3">
                      <p className="font-semibold text-parchment">Die Änderung wurde unterbrochen.</p>
                      <p className="mt-1 text-sm text-ash-300">
                        {errorText(phase.error) ?? 'Ein Fehler ist aufgetreten.'} Bisher bearbeitet:{' '}
                        {phase.answered.length} von {data?.changes.length ?? phase.answered.length}. Erneut
                        senden ist sicher: Bereits geänderte Bewerbungen werden nicht noch einmal geändert
                        oder benachrichtigt.
                      </p>
                    </div>
                    {phase.answered.length > 0 ? (
                      <ResultBody result={bulkResult(target, phase.answered)} />
                    ) : null}
                  </div>
                )}
              </div>

              <footer className="flex flex-col-reverse gap-3 border-t border-white/10 px-5 py-4 sm:flex-row sm:justify-end sm:px-6">
                {phase.kind === 'done' ? (
                  <Button variant="primary" onClick={() => close(false)}>
                    Schließen
                  </Button>
                ) : phase.kind === 'stopped' ? (
                  <>
                    <Button variant="ghost" onClick={() => close(false)}>
                      Schließen
                    </Button>
                    <Button
                      variant="primary"
                      onClick={() => {
                        const answeredIds = new Set(phase.answered.map((row) => row.id));
                        const rest = (data?.changes ?? []).filter((row) => !answeredIds.has(row.id));
                        void run(form.state.values.comment, rest, phase.answered);
                      }}
                    >
                      Rest erneut senden
                    </Button>
                  </>
                ) : (
                  <>
                    <Dialog.CloseTrigger asChild>
                      <Button variant="ghost" disabled={busy}>
                        Abbrechen
                      </Button>
                    </Dialog.CloseTrigger>
                    <Button type="submit" disabled={busy || !data || data.changes.length === 0}>
                      {busy ? (
                        <>
                          <Spinner /> Wird geändert...
                        </>
                      ) : (
                        'Bestätigen'
                      )}
                    </Button>
                  </>
                )}
              </footer>
            </form>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
