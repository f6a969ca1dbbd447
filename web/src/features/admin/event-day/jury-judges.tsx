import { JURY_MESSAGES, JuryJudgeSchema } from '@schlosstreffen/shared';
import type { JuryAdminView, JuryJudgeRow } from '@schlosstreffen/shared/api';
import { useForm } from '@tanstack/react-form';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { TextField } from '../../../components/ui/form-field';
import { Spinner } from '../../../components/ui/spinner';
import { errorText, notify, RETRY_HINT } from '../../../components/ui/toaster';
import { isApiError } from '../../../lib/api';
import { formatDateTime } from '../../../lib/date-format';
import { ChipGroup } from './jury-class-dialog';
import { DialogActions, JuryDialog } from './jury-dialog';
import { useAddJudge, useJudgeClasses, useRemoveJudge, useWithdrawInvite } from './jury-mutations';

const cardClass = 'rounded-2xl border border-white/10 bg-night-900/80 p-5 shadow-xl shadow-black/20 sm:p-6';

/** The classes' names, in the classes' order ('alle Klassen' when a row holds every one). */
function classesLine(view: JuryAdminView, classIds: readonly string[]): string {
  if (view.classes.length === 0) return 'Noch keine Klasse';
  if (view.classes.every((juryClass) => classIds.includes(juryClass.id))) return 'Alle Klassen';
  const names = view.classes.filter((juryClass) => classIds.includes(juryClass.id)).map((c) => c.name);
  return names.length ? names.join(', ') : 'Keine Klasse';
}

/**
 * 'Jurymitglieder': the edition's judges with their classes (changed or removed here), adding an
 * account by its address (without an account: an invitation by mail), and the open invitations.
 */
export function JudgesCard({ view, locked }: { view: JuryAdminView; locked: boolean }) {
  const [editing, setEditing] = useState<JuryJudgeRow | null>(null);
  const [removing, setRemoving] = useState<JuryJudgeRow | null>(null);
  const remove = useRemoveJudge(view.year);
  const withdraw = useWithdrawInvite(view.year);
  return (
    <article aria-labelledby="jury-judges" className={cardClass}>
      <h2 id="jury-judges" className="font-display text-xl text-parchment">
        Jurymitglieder
      </h2>
      <p className="mt-1 text-sm text-ash-400">
        Jedes Konto kann Jurymitglied sein, auch Prüfer und Admins. Ein Jurymitglied sieht nur die Jury-Seiten
        und bewertet jedes Auto seiner Klassen, außer dem eigenen und solchen, für die es sich als befangen
        erklärt.
      </p>
      {view.judges.length === 0 ? (
        <p className="mt-4 text-sm text-ash-400">Noch keine Jurymitglieder.</p>
      ) : (
        <ul aria-label="Jurymitglieder" className="mt-4 flex flex-col divide-y divide-white/5">
          {view.judges.map((judge) => (
            <li key={judge.userId} className="flex flex-wrap items-center gap-x-4 gap-y-2 py-3">
              <div className="min-w-0 flex-1">
                <p className="font-semibold text-parchment">{judge.name}</p>
                <p className="truncate text-xs text-ash-400">{judge.email}</p>
                <p className="mt-1 text-sm text-ash-300">{classesLine(view, judge.classIds)}</p>
              </div>
              {locked ? null : (
                <div className="flex gap-2">
                  <Button variant="secondary" onClick={() => setEditing(judge)}>
                    Klassen<span className="sr-only"> von {judge.name}</span> ändern
                  </Button>
                  <Button variant="ghost" onClick={() => setRemoving(judge)}>
                    Entfernen<span className="sr-only"> – {judge.name}</span>
                  </Button>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      {/* A class added or removed: the form starts with every class chosen again. */}
      {locked ? null : <AddJudgeForm key={view.classes.map((c) => c.id).join()} view={view} />}
      {view.invites.length ? (
        <section aria-labelledby="jury-invites" className="mt-6 border-t border-white/10 pt-4">
          <h3 id="jury-invites" className="text-sm font-semibold text-parchment">
            Offene Einladungen
          </h3>
          <ul className="mt-2 flex flex-col divide-y divide-white/5">
            {view.invites.map((invite) => (
              <li key={invite.id} className="flex flex-wrap items-center gap-x-4 gap-y-2 py-2 text-sm">
                <div className="min-w-0 flex-1">
                  <p className="truncate text-parchment">{invite.email}</p>
                  <p className="text-xs text-ash-400">
                    {classesLine(view, invite.classIds)} · eingeladen am {formatDateTime(invite.invitedAt)}
                  </p>
                </div>
                <Button
                  variant="ghost"
                  disabled={withdraw.isPending}
                  onClick={() =>
                    withdraw.mutate(invite.id, {
                      onSuccess: () => notify.success('Einladung zurückgezogen', invite.email),
                      onError: (error) => notify.error('Nicht zurückgezogen', error, RETRY_HINT),
                    })
                  }
                >
                  Zurückziehen<span className="sr-only"> – {invite.email}</span>
                </Button>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {editing ? <JudgeClassesDialog view={view} judge={editing} onClose={() => setEditing(null)} /> : null}
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => {
          if (!open) setRemoving(null);
        }}
        title="Jurymitglied entfernen?"
        confirmLabel="Entfernen"
        pendingLabel="Wird entfernt..."
        pending={remove.isPending}
        destructive
        onConfirm={() => {
          if (!removing) return;
          remove.mutate(removing.userId, {
            onSuccess: () => {
              notify.success('Jurymitglied entfernt', removing.name);
              setRemoving(null);
            },
            onError: (error) => notify.error('Nicht entfernt', error, RETRY_HINT),
          });
        }}
      >
        {removing?.name} bewertet dann in keiner Klasse dieser Ausgabe mehr. Bereits abgegebene Bewertungen
        bleiben erhalten.
      </ConfirmDialog>
    </article>
  );
}

function JudgeClassesDialog({
  view,
  judge,
  onClose,
}: {
  view: JuryAdminView;
  judge: JuryJudgeRow;
  onClose: () => void;
}) {
  const save = useJudgeClasses(view.year);
  const [chosen, setChosen] = useState<string[]>(judge.classIds);
  return (
    <JuryDialog
      open
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title="Klassen ändern"
      description={judge.name}
      busy={save.isPending}
    >
      <ChipGroup
        label="Klassen"
        options={view.classes.map((juryClass) => juryClass.id)}
        labelOf={(id) => view.classes.find((juryClass) => juryClass.id === id)?.name ?? id}
        empty="Noch keine Klasse angelegt."
        chosen={chosen}
        onChange={setChosen}
        disabled={save.isPending}
      />
      <DialogActions>
        <Button variant="ghost" disabled={save.isPending} onClick={onClose}>
          Abbrechen
        </Button>
        <Button
          disabled={save.isPending}
          onClick={() =>
            save.mutate(
              { userId: judge.userId, classIds: chosen },
              {
                onSuccess: () => {
                  notify.success('Klassen gespeichert', judge.name);
                  onClose();
                },
                onError: (error) => notify.error('Nicht gespeichert', error, RETRY_HINT),
              },
            )
          }
        >
          {save.isPending ? <Spinner /> : null}
          Speichern
        </Button>
      </DialogActions>
    </JuryDialog>
  );
}

/** 'Jurymitglied hinzufügen': an address and its classes; without an account, an invitation by mail. */
function AddJudgeForm({ view }: { view: JuryAdminView }) {
  const add = useAddJudge(view.year);
  const allIds = view.classes.map((juryClass) => juryClass.id);
  /** The address that has no confirmed account, with the classes chosen for it. */
  const [unknown, setUnknown] = useState<{ email: string; classIds: string[] | undefined } | null>(null);
  const [outcome, setOutcome] = useState('');
  const form = useForm({
    defaultValues: { email: '', classIds: allIds },
    onSubmit: async ({ value, formApi }) => {
      // Every class chosen: the judge judges every class of the edition.
      const classIds = allIds.every((id) => value.classIds.includes(id)) ? undefined : value.classIds;
      const email = value.email.trim();
      setUnknown(null);
      try {
        const answer = await add.mutateAsync({ email, classIds, invite: false });
        notify.success(answer.message, email);
        setOutcome(answer.message);
        formApi.reset();
      } catch (error) {
        if (
          isApiError(error) &&
          error.status === 404 &&
          error.serverMessage === JURY_MESSAGES.judgeUnknownAccount
        ) {
          setUnknown({ email, classIds });
          setOutcome(error.serverMessage);
          return;
        }
        notify.error('Nicht hinzugefügt', error, RETRY_HINT);
        setOutcome(`Fehler: ${errorText(error) ?? 'Nicht hinzugefügt.'}`);
      }
    },
  });
  const invite = () => {
    if (!unknown) return;
    add.mutate(
      { email: unknown.email, classIds: unknown.classIds, invite: true },
      {
        onSuccess: (answer) => {
          notify.success(answer.message, unknown.email);
          setOutcome(answer.message);
          setUnknown(null);
          form.reset();
        },
        onError: (error) => notify.error('Nicht eingeladen', error, RETRY_HINT),
      },
    );
  };
  return (
    <form
      aria-label="Jurymitglied hinzufügen"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void form.handleSubmit();
      }}
      className="mt-6 flex flex-col gap-4 border-t border-white/10 pt-5"
    >
      <h3 className="text-sm font-semibold text-parchment">Jurymitglied hinzufügen</h3>
      <form.Field name="email" validators={{ onSubmit: JuryJudgeSchema.entries.email }}>
        {(field) => (
          <TextField
            field={field}
            label="E-Mail-Adresse"
            type="email"
            autoComplete="off"
            required
            hint="Die Adresse eines Kontos; gibt es keins, können Sie per E-Mail einladen."
            disabled={add.isPending}
          />
        )}
      </form.Field>
      {view.classes.length ? (
        <form.Field name="classIds">
          {(field) => (
            <ChipGroup
              label="Klassen"
              options={allIds}
              labelOf={(id) => view.classes.find((juryClass) => juryClass.id === id)?.name ?? id}
              empty=""
              chosen={field.state.value}
              onChange={field.handleChange}
              disabled={add.isPending}
            />
          )}
        </form.Field>
      ) : null}
      {unknown ? (
        <div
          role="alert"
          className="rounded-xl border border-gold-500/30 bg-gold-500/10 px-4 py-3 text-sm text-gold-200"
        >
          <p>
            {JURY_MESSAGES.judgeUnknownAccount} ({unknown.email})
          </p>
          <Button variant="secondary" className="mt-3" disabled={add.isPending} onClick={invite}>
            {add.isPending ? <Spinner /> : null}
            Per E-Mail einladen
          </Button>
        </div>
      ) : null}
      <p role="status" className="sr-only">
        {outcome}
      </p>
      <div>
        <Button type="submit" disabled={add.isPending} className="w-full sm:w-auto">
          {add.isPending && !unknown ? <Spinner /> : null}
          Jurymitglied hinzufügen
        </Button>
      </div>
    </form>
  );
}
