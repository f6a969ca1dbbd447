import { AWARD_MESSAGES, AWARD_VOTES_PER_VOTER, LinkTokenSchema } from '@schlosstreffen/shared';
import type {
  AwardPendingVotes,
  AwardVoteResult,
  AwardVoterExport,
  ServerMessage,
} from '@schlosstreffen/shared/api';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import * as v from 'valibot';
import { LinkAction, LinkOutcome } from '../../components/link-action-card';
import { Checkbox } from '../../components/ui/checkbox';
import { Button } from '../../components/ui/button';
import { PageCard } from '../../components/ui/page-card';
import { Spinner } from '../../components/ui/spinner';
import { InlineLoadError } from '../../components/ui/query-states';
import { errorText, RETRY_HINT } from '../../components/ui/toaster';
import { api, isApiError } from '../../lib/api';
import { saveFile } from '../../lib/save-file';

/** Where the links of the award mail lead: each acts only when its button is pressed. */

/** /publikumsliebling/bestaetigen?token=…: proves the address; from then its votes count. */
export function AwardConfirmPage({ token }: { token: string | undefined }) {
  const parsed = v.safeParse(LinkTokenSchema, { token });
  return (
    <PageCard title="Deine Stimme bestätigen" closeTo="/" width="md">
      {parsed.success ? (
        <ConfirmVotes token={parsed.output.token} />
      ) : (
        <LinkOutcome tone="error" text={AWARD_MESSAGES.linkInvalid} />
      )}
    </PageCard>
  );
}

/**
 * The votes waiting on the address in every browser, listed before the button: those cast in this
 * browser are picked, the others only if the person picks them, so votes someone else typed in with
 * the address never count by the owner pressing the button. No more can be picked than the three
 * counted votes leave room for. Opening the page changes nothing.
 */
function ConfirmVotes({ token }: { token: string }) {
  const waiting = useQuery({
    queryKey: ['award', 'confirm', token],
    queryFn: () => api.post<AwardPendingVotes>('/api/award/confirm/pending', { token }),
    retry: false,
    staleTime: Infinity,
  });
  const [picked, setPicked] = useState<Set<number> | null>(null);
  const confirm = useMutation({
    mutationFn: (startNumbers: number[]) =>
      api.post<AwardVoteResult>('/api/award/confirm', { token, startNumbers }),
  });

  if (confirm.isSuccess) {
    const result = confirm.data;
    const votes = result.votes.length
      ? ` Deine Stimmen: Startnummer ${result.votes.join(', ')}.`
      : ' Noch zählt keine Stimme; wähle auf den Seiten der Autos bis zu drei aus.';
    return <LinkOutcome tone="ok" text={`${result.message}${votes}`} />;
  }
  if (waiting.isPending)
    return (
      <p role="status" className="flex items-center gap-2 text-sm text-ash-300">
        <Spinner />
        Wird geladen...
      </p>
    );
  if (waiting.isError) {
    if (isApiError(waiting.error) && waiting.error.status < 500)
      return <LinkOutcome tone="error" text={errorText(waiting.error) ?? AWARD_MESSAGES.linkInvalid} />;
    return <InlineLoadError query={waiting} fallback="Die Seite ließ sich nicht laden." />;
  }

  const data = waiting.data;
  const pending = data.votes.filter((vote) => vote.pending);
  const counted = data.votes.filter((vote) => !vote.pending);
  const free = Math.max(0, AWARD_VOTES_PER_VOTER - counted.length);
  const chosen =
    picked ??
    new Set(
      pending
        .filter((vote) => vote.thisBrowser)
        .slice(0, free)
        .map((vote) => vote.startNumber),
    );
  const toggle = (startNumber: number, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(startNumber);
    else next.delete(startNumber);
    setPicked(next);
  };
  const rejected = isApiError(confirm.error) && confirm.error.status < 500;
  if (rejected)
    return <LinkOutcome tone="error" text={errorText(confirm.error) ?? AWARD_MESSAGES.linkInvalid} />;

  return (
    <div className="flex flex-col gap-6 text-sm leading-relaxed text-ash-300">
      {data.confirmed ? (
        <p>
          Diese E-Mail-Adresse ist schon bestätigt. Bestätige sie auch in diesem Browser, dann kannst du hier
          bis zum Ende der Abstimmung Autos wählen oder Stimmen zurücknehmen (bis zu drei Autos).
        </p>
      ) : (
        <p>
          Bestätige, dass diese E-Mail-Adresse dir gehört. Dann zählen die Stimmen, die du hier auswählst, und
          du kannst in diesem Browser bis zum Ende der Abstimmung weitere Autos wählen oder Stimmen
          zurücknehmen (bis zu drei Autos).
        </p>
      )}
      {pending.length ? (
        <fieldset className="flex flex-col gap-3">
          <legend className="mb-3 font-medium text-parchment">
            Mit dieser Adresse wurde für diese Autos gestimmt:
          </legend>
          {pending.map((vote) => (
            <Checkbox
              key={vote.startNumber}
              checked={chosen.has(vote.startNumber)}
              disabled={!chosen.has(vote.startNumber) && chosen.size >= free}
              onCheckedChange={(on) => toggle(vote.startNumber, on)}
              label={`Nr. ${vote.startNumber} · ${vote.car}`}
              description={
                vote.thisBrowser ? 'In diesem Browser abgegeben' : 'In einem anderen Browser abgegeben'
              }
            />
          ))}
          <p className="text-xs text-ash-400">
            {free === 0
              ? 'Deine drei Stimmen zählen schon: Nimm auf der Seite eines Autos eine zurück, um ein anderes zu wählen.'
              : `Es zählen höchstens drei Stimmen: Du kannst ${free === 1 ? 'noch ein Auto' : `bis zu ${free} Autos`} auswählen.`}{' '}
            Wähle nur die Autos, für die du selbst gestimmt hast. Stimmen, die du nicht auswählst, werden
            verworfen.
          </p>
        </fieldset>
      ) : null}
      {counted.length ? (
        <p>Deine Stimmen: Startnummer {counted.map((vote) => vote.startNumber).join(', ')}.</p>
      ) : null}
      <Button
        className="w-full py-3"
        disabled={confirm.isPending}
        aria-disabled={confirm.isPending}
        onClick={() => confirm.mutate([...chosen])}
      >
        {confirm.isPending ? (
          <>
            <Spinner />
            Wird bestätigt...
          </>
        ) : (
          'Adresse bestätigen'
        )}
      </Button>
      {confirm.isError ? (
        <p role="alert" className="text-red-300">
          {errorText(confirm.error) ?? `Das hat nicht geklappt. ${RETRY_HINT}`}
        </p>
      ) : null}
    </div>
  );
}

/** Saves the JSON as a file in the browser. */
function download(data: AwardVoterExport) {
  saveFile(
    new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }),
    `meine-stimmen-publikumsliebling-${data.edition}.json`,
  );
}

/** /publikumsliebling/meine-stimmen?token=…: the address's own votes, to download or delete. */
export function AwardMyVotesPage({ token }: { token: string | undefined }) {
  const parsed = v.safeParse(LinkTokenSchema, { token });
  const exported = useMutation({
    mutationFn: (value: string) => api.post<AwardVoterExport>('/api/award/my-votes/export', { token: value }),
    onSuccess: download,
  });
  if (!parsed.success)
    return (
      <PageCard title="Meine Stimmen" closeTo="/" width="md">
        <p role="alert" className="text-sm text-red-300">
          {AWARD_MESSAGES.linkInvalid}
        </p>
      </PageCard>
    );
  return (
    <PageCard title="Meine Stimmen" closeTo="/" width="md">
      <div className="flex flex-col gap-8">
        <section
          aria-labelledby="meine-stimmen-herunterladen"
          className="flex flex-col gap-4 text-sm text-ash-300"
        >
          <h2 id="meine-stimmen-herunterladen" className="font-display text-xl text-parchment">
            Herunterladen
          </h2>
          <p>
            Lade herunter, was wir zu dieser E-Mail-Adresse für den Publikumsliebling gespeichert haben: die
            Adresse, wann sie bestätigt wurde, und für welche Autos sie wann gestimmt hat.
          </p>
          <Button
            variant="secondary"
            className="w-full py-3"
            disabled={exported.isPending}
            onClick={() => exported.mutate(parsed.output.token)}
          >
            {exported.isPending ? <Spinner /> : null}
            Meine Stimmen herunterladen
          </Button>
          {exported.isError ? (
            <p role="alert" className="text-red-300">
              {errorText(exported.error) ?? `Das hat nicht geklappt. ${RETRY_HINT}`}
            </p>
          ) : null}
        </section>
        <section
          aria-labelledby="meine-stimmen-loeschen"
          className="flex flex-col gap-4 border-t border-white/10 pt-6"
        >
          <h2 id="meine-stimmen-loeschen" className="font-display text-xl text-parchment">
            Löschen
          </h2>
          <LinkAction
            token={token}
            intro={
              <p>
                Löscht deine Adresse und alle deine Stimmen. Läuft die Abstimmung noch, zählen sie dann nicht
                mehr; ein festgeschriebenes Endergebnis bleibt, wie es ist.
              </p>
            }
            actionLabel="Meine Stimmen löschen"
            pendingLabel="Wird gelöscht..."
            action={(value) => api.post<ServerMessage>('/api/award/my-votes/delete', { token: value })}
            invalidText={AWARD_MESSAGES.linkInvalid}
            destructive
          />
        </section>
      </div>
    </PageCard>
  );
}
