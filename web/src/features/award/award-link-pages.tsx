import { AWARD_MESSAGES, LinkTokenSchema } from '@schlosstreffen/shared';
import type { AwardVoteResult, AwardVoterExport, ServerMessage } from '@schlosstreffen/shared/api';
import { useMutation } from '@tanstack/react-query';
import * as v from 'valibot';
import { LinkAction, LinkActionCard } from '../../components/link-action-card';
import { Button } from '../../components/ui/button';
import { PageCard } from '../../components/ui/page-card';
import { Spinner } from '../../components/ui/spinner';
import { errorText, RETRY_HINT } from '../../components/ui/toaster';
import { api } from '../../lib/api';
import { saveFile } from '../../lib/save-file';

/** Where the links of the award mail lead: each acts only when its button is pressed. */

/** /publikumsliebling/bestaetigen?token=…: proves the address; from then its votes count. */
export function AwardConfirmPage({ token }: { token: string | undefined }) {
  return (
    <LinkActionCard
      title="Deine Stimme bestätigen"
      token={token}
      intro={
        <p>
          Bestätige, dass diese E-Mail-Adresse dir gehört. Dann zählen die Stimmen, die mit ihr für den
          Publikumsliebling abgegeben wurden, und du kannst in diesem Browser bis zum Ende der Abstimmung
          weitere Autos wählen oder Stimmen zurücknehmen (bis zu drei Autos).
        </p>
      }
      actionLabel="Adresse bestätigen"
      pendingLabel="Wird bestätigt..."
      action={async (value) => {
        const result = await api.post<AwardVoteResult>('/api/award/confirm', { token: value });
        const votes = result.votes.length
          ? ` Deine Stimmen: Startnummer ${result.votes.join(', ')}.`
          : ' Noch zählt keine Stimme; wähle auf den Seiten der Autos bis zu drei aus.';
        return { message: `${result.message}${votes}` };
      }}
      invalidText={AWARD_MESSAGES.linkInvalid}
    />
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
