import {
  VISITOR_UPDATE_LIMITS,
  VisitorUpdateDraftSchema,
  type VisitorUpdateDraft,
} from '@schlosstreffen/shared';
import type { ServerMessage, VisitorUpdate, VisitorUpdateList } from '@schlosstreffen/shared/api';
import { useForm, useStore } from '@tanstack/react-form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import * as v from 'valibot';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { TextField } from '../../../components/ui/form-field';
import { ProgressBar } from '../../../components/ui/progress-bar';
import { LoadError, Loading } from '../../../components/ui/query-states';
import { TextAreaField } from '../../../components/ui/textarea';
import { notify, RETRY_HINT } from '../../../components/ui/toaster';
import { api } from '../../../lib/api';
import { formatDateTime } from '../../../lib/date-format';
import { AccountForm } from '../../account/form-parts';
import { AdminOnly } from '../admin-layout';
import { visitorUpdateQueryOptions, visitorUpdatesQueryOptions } from './visitor-updates-queries';

/** /admin/besucher-updates: write, preview, test and send event updates to the visitors (admins only). */
export function AdminVisitorUpdatesPage() {
  return (
    <AdminOnly>
      <VisitorUpdatesScreen />
    </AdminOnly>
  );
}

function VisitorUpdatesScreen() {
  const list = useQuery(visitorUpdatesQueryOptions);
  const [selected, setSelected] = useState<string | null>(null);
  const recipients = list.data?.recipients;

  return (
    <section className="flex-1">
      <p className="text-xs tracking-[0.3em] text-gold-400 uppercase">Adminbereich</p>
      <h1 className="mt-2 font-display text-4xl text-parchment">Besucher-Updates</h1>
      <p className="mt-3 max-w-2xl text-sm text-ash-300">
        Neuigkeiten zum Event an alle Besucher, die ihre Vormerkung bestätigt und sich nicht abgemeldet haben
        {recipients === undefined
          ? ''
          : ` (derzeit ${recipients === 1 ? '1 Empfänger' : `${recipients} Empfänger`})`}
        . Jede E-Mail enthält einen Link zum Abmelden mit einem Klick.
      </p>

      <div className="mt-8 grid gap-8 xl:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
        <div className="flex flex-col gap-8">
          {selected ? (
            <UpdateEditor
              key={selected}
              id={selected}
              recipients={recipients}
              onNew={() => setSelected(null)}
            />
          ) : (
            <NewUpdate onCreated={setSelected} />
          )}
        </div>
        <History list={list} selected={selected} onSelect={setSelected} />
      </div>
    </section>
  );
}

const panelClass = 'rounded-2xl border border-white/10 bg-night-900/80 p-6 shadow-2xl shadow-black/30';

/** Subject and text with the shared schema's German messages. */
function DraftForm({
  initial,
  submitLabel,
  pendingLabel,
  onSave,
}: {
  initial: VisitorUpdateDraft;
  submitLabel: string;
  pendingLabel: string;
  onSave: (draft: VisitorUpdateDraft) => Promise<void>;
}) {
  const form = useForm({
    defaultValues: initial,
    validators: { onSubmit: VisitorUpdateDraftSchema },
    onSubmit: async ({ value }) => onSave(v.parse(VisitorUpdateDraftSchema, value)),
  });
  const pending = useStore(form.store, (state) => state.isSubmitting);
  return (
    <AccountForm label="Update schreiben" onSubmit={() => form.handleSubmit()}>
      <form.Field name="subject">
        {(field) => (
          <TextField
            field={field}
            label="Betreff"
            required
            maxLength={VISITOR_UPDATE_LIMITS.subject}
            autoComplete="off"
            placeholder="z. B. Der Zeitplan steht"
          />
        )}
      </form.Field>
      <form.Field name="body">
        {(field) => (
          <TextAreaField
            field={field}
            label="Nachricht"
            required
            rows={9}
            maxLength={VISITOR_UPDATE_LIMITS.body}
            hint="Leerzeilen trennen Absätze. Die Anrede „Hallo <Vorname>,“ und der Abmeldelink kommen automatisch dazu."
          />
        )}
      </form.Field>
      <Button type="submit" disabled={pending} className="self-start">
        {pending ? pendingLabel : submitLabel}
      </Button>
    </AccountForm>
  );
}

function NewUpdate({ onCreated }: { onCreated: (id: string) => void }) {
  const queryClient = useQueryClient();
  return (
    <div className={panelClass}>
      <h2 className="font-display text-2xl text-parchment">Neues Update</h2>
      <p className="mt-1.5 mb-5 text-sm text-ash-300">
        Als Entwurf speichern, in der Vorschau prüfen, eine Testmail an sich selbst schicken, dann an alle
        senden.
      </p>
      <DraftForm
        initial={{ subject: '', body: '' }}
        submitLabel="Entwurf speichern"
        pendingLabel="Wird gespeichert..."
        onSave={async (draft) => {
          try {
            const created = await api.post<VisitorUpdate>('/api/admin/visitor-updates', draft);
            await queryClient.invalidateQueries({ queryKey: visitorUpdatesQueryOptions.queryKey });
            notify.success('Entwurf gespeichert', 'Die Vorschau wird erstellt.');
            onCreated(created.id);
          } catch (error) {
            notify.error('Entwurf nicht gespeichert', error, RETRY_HINT);
          }
        }}
      />
    </div>
  );
}

function UpdateEditor({
  id,
  recipients,
  onNew,
}: {
  id: string;
  recipients: number | undefined;
  onNew: () => void;
}) {
  const queryClient = useQueryClient();
  const query = useQuery(visitorUpdateQueryOptions(id));
  const [confirming, setConfirming] = useState(false);
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: visitorUpdatesQueryOptions.queryKey }),
      queryClient.invalidateQueries({ queryKey: visitorUpdateQueryOptions(id).queryKey }),
    ]);
  const test = useMutation({
    mutationFn: () => api.post<ServerMessage>(`/api/admin/visitor-updates/${id}/test`, {}),
    onSuccess: (data) => notify.success('Testmail gesendet', data.message),
    onError: (error) => notify.error('Testmail fehlgeschlagen', error, RETRY_HINT),
  });
  const send = useMutation({
    mutationFn: () => api.post<VisitorUpdate>(`/api/admin/visitor-updates/${id}/send`, {}),
    onSuccess: async (data) => {
      setConfirming(false);
      notify.success('Versand gestartet', `Das Update geht an ${data.total} Besucher.`);
      await refresh();
    },
    onError: (error) => {
      setConfirming(false);
      notify.error('Versand nicht gestartet', error, RETRY_HINT);
    },
  });

  if (query.isPending) {
    return (
      <Loading label="Update wird geladen...">
        <div aria-hidden="true" className={`${panelClass} h-72 animate-pulse motion-reduce:animate-none`} />
      </Loading>
    );
  }
  if (query.isError) return <LoadError title="Das Update konnte nicht geladen werden" query={query} />;
  const update = query.data;
  const draft = update.status === 'draft';

  return (
    <>
      <div className={panelClass}>
        <div className="mb-5 flex flex-wrap items-start justify-between gap-3">
          <div>
            <h2 className="font-display text-2xl text-parchment">
              {draft ? 'Entwurf bearbeiten' : update.subject}
            </h2>
            {draft ? null : (
              <p className="mt-1 text-sm text-ash-300">
                {update.statusLabel}
                {update.startedAt ? ` · gestartet ${formatDateTime(update.startedAt)}` : ''}
              </p>
            )}
          </div>
          <Button variant="ghost" className="border border-white/10" onClick={onNew}>
            Neues Update
          </Button>
        </div>
        {draft ? (
          <>
            <DraftForm
              initial={{ subject: update.subject, body: update.body }}
              submitLabel="Änderungen speichern"
              pendingLabel="Wird gespeichert..."
              onSave={async (value) => {
                try {
                  await api.patch<VisitorUpdate>(`/api/admin/visitor-updates/${id}`, value);
                  await refresh();
                  notify.success('Entwurf gespeichert', 'Die Vorschau wird erstellt.');
                } catch (error) {
                  notify.error('Entwurf nicht gespeichert', error, RETRY_HINT);
                }
              }}
            />
            <div className="mt-6 flex flex-wrap gap-3 border-t border-white/10 pt-5">
              <Button variant="secondary" disabled={test.isPending} onClick={() => test.mutate()}>
                {test.isPending ? 'Wird gesendet...' : 'Test an mich senden'}
              </Button>
              <Button disabled={send.isPending || !recipients} onClick={() => setConfirming(true)}>
                An alle senden
              </Button>
            </div>
            {recipients === 0 ? (
              <p className="mt-3 text-sm text-ash-300">Noch hat kein Besucher seine Vormerkung bestätigt.</p>
            ) : null}
          </>
        ) : (
          <SendProgress update={update} />
        )}
      </div>
      {draft ? <Preview update={update} /> : null}
      <ConfirmDialog
        open={confirming}
        onOpenChange={(open) => {
          if (!open) setConfirming(false);
        }}
        title="Update an alle senden?"
        confirmLabel="Jetzt senden"
        pendingLabel="Wird gestartet..."
        pending={send.isPending}
        onConfirm={() => send.mutate()}
      >
        „{update.subject}“ geht an {recipients === 1 ? '1 Besucher' : `${recipients ?? 0} Besucher`}. Danach
        lässt sich das Update nicht mehr ändern.
      </ConfirmDialog>
    </>
  );
}

function SendProgress({ update }: { update: VisitorUpdate }) {
  const { counts, total } = update;
  const done = counts.sent + counts.failed + counts.unsubscribed;
  return (
    <div className="flex flex-col gap-4">
      <ProgressBar
        value={done}
        max={Math.max(total, 1)}
        label={update.status === 'sent' ? 'Versand abgeschlossen' : 'Versand läuft'}
        valueText={`${done} von ${total}`}
      />
      <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-4">
        <Count label="Gesendet" value={counts.sent} />
        <Count label="Offen" value={counts.pending} />
        <Count label="Fehlgeschlagen" value={counts.failed} />
        <Count label="Abgemeldet" value={counts.unsubscribed} />
      </dl>
      <div className="rounded-xl border border-white/10 bg-night-950/60 p-4">
        <p className="text-xs tracking-wide text-ash-400 uppercase">Nachricht</p>
        <p className="mt-2 text-sm whitespace-pre-line text-parchment">{update.body}</p>
      </div>
    </div>
  );
}

function Count({ label, value }: { label: string; value: number }) {
  return (
    <div className="rounded-lg border border-white/10 bg-night-950/60 px-3 py-2">
      <dt className="text-xs text-ash-400">{label}</dt>
      <dd className="font-semibold text-parchment tabular-nums">{value}</dd>
    </div>
  );
}

/** The draft as the mail template renders it, in a sandbox (no scripts, no same-origin access). */
function Preview({ update }: { update: VisitorUpdate }) {
  return (
    <div className={panelClass}>
      <h2 className="font-display text-2xl text-parchment">Vorschau</h2>
      <p className="mt-1.5 mb-4 text-sm text-ash-300">
        So sieht die E-Mail aus (Beispielname „Max“). Betreff: „{update.subject} – Schlosstreffen“
      </p>
      {update.previewReady ? (
        <iframe
          title="Vorschau der E-Mail"
          sandbox=""
          src={`/api/admin/visitor-updates/${encodeURIComponent(update.id)}/preview?revision=${update.revision}`}
          className="h-[640px] w-full rounded-xl border border-white/10 bg-night-950"
        />
      ) : (
        <p role="status" className="text-sm text-ash-300">
          Vorschau wird erstellt...
        </p>
      )}
    </div>
  );
}

function History({
  list,
  selected,
  onSelect,
}: {
  list: ReturnType<typeof useQuery<VisitorUpdateList>>;
  selected: string | null;
  onSelect: (id: string) => void;
}) {
  return (
    <div className={panelClass}>
      <h2 className="font-display text-2xl text-parchment">Verlauf</h2>
      {list.isPending ? (
        <Loading label="Updates werden geladen...">
          <div
            aria-hidden="true"
            className="mt-4 h-24 animate-pulse rounded-xl bg-white/5 motion-reduce:animate-none"
          />
        </Loading>
      ) : list.isError ? (
        <LoadError title="Die Updates konnten nicht geladen werden" query={list} headingLevel="h3" />
      ) : list.data.updates.length === 0 ? (
        <p className="mt-3 text-sm text-ash-300">Noch keine Updates geschrieben.</p>
      ) : (
        <ul aria-label="Bisherige Updates" className="mt-4 flex flex-col gap-2">
          {list.data.updates.map((update) => (
            <li key={update.id}>
              <button
                type="button"
                aria-current={update.id === selected ? 'true' : undefined}
                onClick={() => onSelect(update.id)}
                className="flex w-full flex-col gap-1 rounded-xl border border-white/10 bg-night-950/60 px-4 py-3 text-left transition-colors hover:border-gold-500/40 aria-[current]:border-gold-500/60"
              >
                <span className="font-medium text-parchment">{update.subject}</span>
                <span className="text-xs text-ash-400">
                  {update.statusLabel} · {formatDateTime(update.startedAt ?? update.createdAt)}
                  {update.status === 'draft'
                    ? ''
                    : ` · ${update.total} Empfänger, ${update.counts.sent} gesendet, ${update.counts.failed} fehlgeschlagen, ${update.counts.unsubscribed} abgemeldet`}
                </span>
                {update.status === 'sending' ? (
                  <ProgressBar
                    value={update.total - update.counts.pending}
                    max={Math.max(update.total, 1)}
                    label="Versand läuft"
                    valueText={`${update.progress} %`}
                  />
                ) : null}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
