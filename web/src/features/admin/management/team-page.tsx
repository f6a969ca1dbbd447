import { TEAM_ROLE_LABELS, TEAM_ROLES, TeamGrantSchema, type TeamRole } from '@schlosstreffen/shared';
import type { TeamList, TeamMember } from '@schlosstreffen/shared/api';
import { useForm, useStore } from '@tanstack/react-form';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import * as v from 'valibot';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { TextField } from '../../../components/ui/form-field';
import { LoadError, Loading } from '../../../components/ui/query-states';
import { Spinner } from '../../../components/ui/spinner';
import { notify, RETRY_HINT } from '../../../components/ui/toaster';
import { issueFor } from '../../../lib/api';
import { useCurrentUser } from '../../../lib/current-user';
import { formatDateTime } from '../../../lib/date-format';
import { serverErrorListeners, setServerError } from '../../account/form-parts';
import { AdminOnly } from '../admin-layout';
import { useGrantTeamRole, useResetSecondFactor, useRevokeTeamRole } from './team-mutations';
import { teamQueryOptions } from './team-queries';

const ROLE_TONES: Record<TeamRole, string> = {
  admin: 'border-gold-400/60 bg-gold-500/15 text-gold-100',
  reviewer: 'border-sky-400/40 bg-sky-500/10 text-sky-200',
};

const badgeClass =
  'inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap';

const memberName = (member: TeamMember) =>
  [member.firstName, member.lastName].filter(Boolean).join(' ') || member.email;

/** /admin/team: reviewers and admins, their second factor, and the admin's changes (admins only). */
export function AdminTeamPage() {
  return (
    <AdminOnly>
      <TeamScreen />
    </AdminOnly>
  );
}

/** A change asked for in the confirm dialog. */
type Pending = { kind: 'revoke' | 'reset'; member: TeamMember };

function TeamScreen() {
  const team = useQuery(teamQueryOptions);
  // The dialog's question stays while it closes; `open` says whether it is shown.
  const [asking, setAsking] = useState<Pending | null>(null);
  const [open, setOpen] = useState(false);
  const ask = (pending: Pending) => {
    setAsking(pending);
    setOpen(true);
  };

  return (
    <section className="flex-1">
      <header className="max-w-3xl">
        <p className="text-xs tracking-[0.3em] text-gold-400 uppercase">Adminbereich</p>
        <h1 className="mt-2 font-display text-4xl text-parchment">Team</h1>
        <p className="mt-3 text-sm text-ash-300">
          Prüfer bewerten die Bewerbungen und lassen am Einlass ein; Admins verwalten zusätzlich Ausgaben,
          Besucher, Auto-Quartett und das Team. Eine Rolle bekommt nur ein bestehendes Konto mit bestätigter
          E-Mail-Adresse.{' '}
          {team.data?.secondFactorRequired === false
            ? 'Der zweite Faktor ist auf diesem Server ausgeschaltet (STAFF_SECOND_FACTOR).'
            : 'Jedes Teammitglied meldet sich mit Passwort und einem Code aus einer Authenticator-App an und richtet diesen zweiten Faktor bei der ersten Anmeldung nach der Rollenvergabe selbst ein.'}
        </p>
      </header>

      <div className="mt-8 flex flex-col gap-8">
        <GrantForm />
        <div>
          <h2 className="font-display text-2xl text-parchment">Teammitglieder</h2>
          <div className="mt-4">
            {team.isPending ? (
              <Loading label="Team wird geladen...">
                <div aria-hidden="true" className="h-48 animate-pulse rounded-2xl bg-night-900/80" />
              </Loading>
            ) : team.isError ? (
              <LoadError
                title="Das Team konnte nicht geladen werden"
                query={team}
                headingLevel="h3"
                compact
              />
            ) : (
              <Members data={team.data} onAsk={ask} />
            )}
          </div>
        </div>
      </div>
      {asking ? <ChangeDialog pending={asking} open={open} onClose={() => setOpen(false)} /> : null}
    </section>
  );
}

function SecondFactorState({ member, required }: { member: TeamMember; required: boolean }) {
  if (!member.secondFactorSince) {
    return (
      <span className={required ? 'text-amber-200' : 'text-ash-400'}>
        Nicht eingerichtet
        {required ? (
          <span className="block text-xs text-ash-400">Wird bei der nächsten Anmeldung eingerichtet</span>
        ) : null}
      </span>
    );
  }
  return (
    <span className="text-ash-300">
      Seit {formatDateTime(member.secondFactorSince)}
      <span className="block text-xs text-ash-400">
        {member.recoveryCodesLeft === 1
          ? '1 Wiederherstellungscode übrig'
          : `${member.recoveryCodesLeft} Wiederherstellungscodes übrig`}
      </span>
    </span>
  );
}

function Actions({
  member,
  self,
  onAsk,
}: {
  member: TeamMember;
  self: boolean;
  onAsk: (pending: Pending) => void;
}) {
  const name = memberName(member);
  return (
    <div className="flex flex-wrap gap-2">
      <Button
        variant="ghost"
        className="border border-white/10 px-3.5 py-1.5 text-xs"
        aria-label={`Zweiten Faktor zurücksetzen: ${name}`}
        disabled={!member.secondFactorSince}
        onClick={() => onAsk({ kind: 'reset', member })}
      >
        Zweiten Faktor zurücksetzen
      </Button>
      {self && member.role === 'admin' ? null : (
        <Button
          variant="ghost"
          className="border border-red-400/30 px-3.5 py-1.5 text-xs text-red-200 hover:bg-red-500/10 hover:text-red-100"
          aria-label={`Rolle entziehen: ${name}`}
          onClick={() => onAsk({ kind: 'revoke', member })}
        >
          Rolle entziehen
        </Button>
      )}
    </div>
  );
}

function Members({ data, onAsk }: { data: TeamList; onAsk: (pending: Pending) => void }) {
  const { data: me } = useCurrentUser();
  const required = data.secondFactorRequired;
  return (
    <>
      {/* Wide screens: one row per member. */}
      <div className="hidden overflow-hidden rounded-2xl border border-white/10 bg-night-900/80 md:block">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Teammitglieder</caption>
          <thead className="border-b border-white/10 bg-night-800/60 text-xs tracking-wide text-ash-300 uppercase">
            <tr>
              <th scope="col" className="px-5 py-3 font-semibold">
                Name
              </th>
              <th scope="col" className="px-5 py-3 font-semibold">
                Rolle
              </th>
              <th scope="col" className="px-5 py-3 font-semibold">
                Zweiter Faktor
              </th>
              <th scope="col" className="px-5 py-3 font-semibold">
                <span className="sr-only">Aktionen</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-white/5">
            {data.members.map((member) => (
              <tr key={member.id} className="align-top transition-colors hover:bg-white/[0.03]">
                <th scope="row" className="px-5 py-3.5 font-normal">
                  <span className="block font-medium text-parchment">
                    {memberName(member)}
                    {member.id === me?.id ? (
                      <span className="ml-2 text-xs text-ash-400">(Ihr Konto)</span>
                    ) : null}
                  </span>
                  <span className="block text-xs break-words text-ash-400">{member.email}</span>
                </th>
                <td className="px-5 py-3.5">
                  <span className={`${badgeClass} ${ROLE_TONES[member.role]}`}>
                    {TEAM_ROLE_LABELS[member.role]}
                  </span>
                </td>
                <td className="px-5 py-3.5">
                  <SecondFactorState member={member} required={required} />
                </td>
                <td className="px-5 py-3.5">
                  <Actions member={member} self={member.id === me?.id} onAsk={onAsk} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      {/* Phones: one card per member. */}
      <ul aria-label="Teammitglieder" className="flex flex-col gap-3 md:hidden">
        {data.members.map((member) => (
          <li key={member.id} className="rounded-xl border border-white/10 bg-night-900/80 p-4">
            <div className="flex items-start justify-between gap-3">
              <h3 className="min-w-0 font-medium break-words text-parchment">
                {memberName(member)}
                {member.id === me?.id ? <span className="ml-2 text-xs text-ash-400">(Ihr Konto)</span> : null}
              </h3>
              <span className={`${badgeClass} ${ROLE_TONES[member.role]}`}>
                {TEAM_ROLE_LABELS[member.role]}
              </span>
            </div>
            <p className="mt-0.5 text-sm break-all text-ash-400">{member.email}</p>
            <div className="mt-3 text-sm">
              <span className="block text-xs text-ash-400">Zweiter Faktor</span>
              <SecondFactorState member={member} required={required} />
            </div>
            <div className="mt-3">
              <Actions member={member} self={member.id === me?.id} onAsk={onAsk} />
            </div>
          </li>
        ))}
      </ul>
    </>
  );
}

/** Gives an existing account with a confirmed address a role. */
function GrantForm() {
  const grant = useGrantTeamRole();
  const form = useForm({
    defaultValues: { email: '', role: 'reviewer' as TeamRole },
    validators: { onChange: TeamGrantSchema },
    onSubmit: async ({ value, formApi }) => {
      try {
        const answer = await grant.mutateAsync(v.parse(TeamGrantSchema, value));
        notify.success('Rolle vergeben', answer.message);
        formApi.reset();
      } catch (error) {
        const message = issueFor(error, 'email');
        if (message) setServerError(form, 'email', message);
        else notify.error('Rolle vergeben fehlgeschlagen', error, RETRY_HINT);
      }
    },
  });
  const pending = useStore(form.store, (state) => state.isSubmitting);

  return (
    <div className="rounded-2xl border border-gold-500/25 bg-night-900/80 p-6 shadow-2xl shadow-black/30">
      <h2 className="font-display text-2xl text-parchment">Rolle vergeben</h2>
      <p className="mt-1.5 text-sm text-ash-300">
        Die Person registriert sich zuerst selbst und bestätigt ihre E-Mail-Adresse. Ihre Sitzungen enden mit
        der neuen Rolle.
      </p>
      <form
        noValidate
        aria-label="Rolle vergeben"
        className="mt-5 grid gap-4 lg:grid-cols-[minmax(0,1fr)_auto_auto] lg:items-start"
        onSubmit={(event) => {
          event.preventDefault();
          void form.handleSubmit();
        }}
      >
        <form.Field name="email" listeners={serverErrorListeners}>
          {(field) => (
            <TextField
              field={field}
              label="E-Mail-Adresse des Kontos"
              type="email"
              required
              autoComplete="off"
              inputMode="email"
              spellCheck={false}
            />
          )}
        </form.Field>
        <form.Field name="role">
          {(field) => (
            <fieldset className="flex flex-col gap-1.5">
              <legend className="mb-1.5 text-sm font-medium text-ash-300">Rolle</legend>
              <div className="grid grid-cols-2 gap-2">
                {TEAM_ROLES.map((role) => (
                  <label
                    key={role}
                    className="flex cursor-pointer items-start gap-3 rounded-xl border border-white/10 bg-night-900/60 px-4 py-2.5 text-sm text-parchment transition-colors hover:border-gold-500/40 has-[:checked]:border-gold-500/50 has-[:checked]:bg-gold-500/5 lg:w-56"
                  >
                    <input
                      type="radio"
                      name="team-role"
                      value={role}
                      checked={field.state.value === role}
                      onChange={() => field.handleChange(role)}
                      className="mt-0.5 size-4 shrink-0 accent-gold-500"
                    />
                    <span>
                      {TEAM_ROLE_LABELS[role]}
                      <span className="block text-xs text-ash-400">
                        {role === 'admin'
                          ? 'Alles, auch Ausgaben, Besucher, Team'
                          : 'Bewerbungen prüfen, Einlass'}
                      </span>
                    </span>
                  </label>
                ))}
              </div>
            </fieldset>
          )}
        </form.Field>
        <Button type="submit" disabled={pending} className="w-full py-3 lg:mt-7 lg:w-auto lg:px-8">
          {pending ? (
            <>
              <Spinner />
              Wird vergeben...
            </>
          ) : (
            'Rolle vergeben'
          )}
        </Button>
      </form>
    </div>
  );
}

/** Asks before a change that ends the member's sessions. */
function ChangeDialog({
  pending: shown,
  open,
  onClose,
}: {
  pending: Pending;
  open: boolean;
  onClose: () => void;
}) {
  const revoke = useRevokeTeamRole();
  const reset = useResetSecondFactor();
  const name = memberName(shown.member);
  const mutation = shown.kind === 'reset' ? reset : revoke;
  const run = () =>
    mutation.mutate(shown.member.id, {
      onSuccess: (answer) => {
        notify.success(
          shown.kind === 'reset' ? 'Zweiter Faktor zurückgesetzt' : 'Rolle entzogen',
          answer.message,
        );
        onClose();
      },
      onError: (error) =>
        notify.error(
          shown.kind === 'reset' ? 'Zurücksetzen fehlgeschlagen' : 'Rolle entziehen fehlgeschlagen',
          error,
          RETRY_HINT,
        ),
    });
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={shown.kind === 'reset' ? 'Zweiten Faktor zurücksetzen?' : 'Rolle entziehen?'}
      confirmLabel={shown.kind === 'reset' ? 'Zurücksetzen' : 'Rolle entziehen'}
      pendingLabel={shown.kind === 'reset' ? 'Wird zurückgesetzt...' : 'Wird entzogen...'}
      pending={mutation.isPending}
      destructive
      onConfirm={run}
    >
      {shown.kind === 'reset'
        ? `${name} wird abgemeldet und richtet bei der nächsten Anmeldung einen neuen zweiten Faktor ein. Die bisherigen Wiederherstellungscodes werden ungültig.`
        : `${name} verliert die Rolle ${TEAM_ROLE_LABELS[shown.member.role]} und wird abgemeldet. Das Konto bleibt als Konto ohne Teamrolle bestehen.`}
    </ConfirmDialog>
  );
}
