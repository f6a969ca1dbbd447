import { MAIL_STATE_LABELS, type MailState } from '@schlosstreffen/shared';
import type { ServerMessage, VehicleMail, VehicleMails } from '@schlosstreffen/shared/api';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { errorText, notify } from '../../../components/ui/toaster';
import { api, apiGet } from '../../../lib/api';
import { formatDateTime } from '../../../lib/date-format';

/** The mails sent about an application, with their fate (staff). */
export const vehicleMailsQueryOptions = (vehicleId: string) =>
  queryOptions({
    queryKey: ['vehicles', 'emails', vehicleId] as const,
    queryFn: ({ signal }) =>
      apiGet<VehicleMails>(`/api/admin/vehicles/${encodeURIComponent(vehicleId)}/emails`, { signal }),
    select: (data) => data.mails,
  });

const STATE_STYLES: Record<MailState, string> = {
  pending: 'border-white/15 text-ash-300',
  sent: 'border-emerald-400/40 bg-emerald-500/10 text-emerald-200',
  deferred: 'border-amber-400/40 bg-amber-500/10 text-amber-200',
  refused: 'border-red-400/40 bg-red-500/10 text-red-200',
  held: 'border-red-400/40 bg-red-500/10 text-red-200',
  failed: 'border-red-400/40 bg-red-500/10 text-red-200',
};

/** 'wird erneut versucht (2 Versuche)': the state with the attempts of a deferred mail. */
function stateLabel(mail: VehicleMail): string {
  const label = MAIL_STATE_LABELS[mail.state];
  if (mail.state !== 'deferred') return label;
  return `${label} (${mail.attempts} ${mail.attempts === 1 ? 'Versuch' : 'Versuche'})`;
}

function MailItem({ vehicleId, mail }: { vehicleId: string; mail: VehicleMail }) {
  const queryClient = useQueryClient();
  const resend = useMutation({
    mutationFn: () =>
      api.post<ServerMessage>(
        `/api/admin/vehicles/${encodeURIComponent(vehicleId)}/emails/${encodeURIComponent(mail.id)}/resend`,
        {},
      ),
    onSuccess: (answer) => notify.success('E-Mail wird erneut gesendet', answer.message),
    onError: (error) => notify.error('Erneut senden fehlgeschlagen', error, 'Bitte versuchen Sie es erneut.'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['vehicles', 'emails', vehicleId] }),
  });
  return (
    <li className="rounded-lg border border-white/10 bg-night-900/60 px-3.5 py-3 text-sm">
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-semibold text-parchment">{mail.name}</span>
        <span className={`rounded-full border px-2 py-0.5 text-xs font-semibold ${STATE_STYLES[mail.state]}`}>
          {stateLabel(mail)}
        </span>
        {mail.resent ? (
          <span className="rounded-full border border-white/15 px-2 py-0.5 text-xs text-ash-300">
            erneut gesendet
          </span>
        ) : null}
      </div>
      {mail.subject ? <p className="mt-1 text-ash-300">{mail.subject}</p> : null}
      <p className="mt-1.5 text-xs text-ash-400">
        an <span className="break-all text-ash-300">{mail.recipient}</span> ·{' '}
        <time dateTime={mail.sentAt ?? mail.createdAt}>{formatDateTime(mail.sentAt ?? mail.createdAt)}</time>
        {mail.templateVersion === null ? null : (
          <> · {mail.templateVersion === 0 ? 'Standardtext' : `Vorlage Version ${mail.templateVersion}`}</>
        )}
      </p>
      {mail.error ? (
        <p className="mt-2 rounded-lg bg-night-800/80 px-3 py-2 text-xs break-words text-parchment">
          {mail.state === 'held'
            ? 'Zurückgehalten, die Adresse wurde abgelehnt: '
            : 'Antwort des Mailservers: '}
          {mail.error}
        </p>
      ) : null}
      {mail.resent ? null : (
        <Button
          variant="secondary"
          className="mt-2 px-4 py-1.5"
          disabled={resend.isPending || resend.isSuccess}
          onClick={() => resend.mutate()}
        >
          {resend.isPending ? (
            <>
              <Spinner /> Wird gesendet...
            </>
          ) : (
            'Erneut senden'
          )}
        </Button>
      )}
    </li>
  );
}

/**
 * The Admin tab's 'E-Mails': each mail about the application, newest first, with its fate
 * (zugestellt, wird erneut versucht, abgelehnt with the server's answer, zurückgehalten) and
 * 'Erneut senden', which sends it once more to the owner's current address.
 */
export function VehicleMailList({ vehicleId }: { vehicleId: string }) {
  const mails = useQuery(vehicleMailsQueryOptions(vehicleId));
  if (mails.isPending) {
    return (
      <p role="status" className="flex items-center gap-2 text-sm text-ash-300">
        <Spinner /> E-Mails werden geladen...
      </p>
    );
  }
  if (mails.isError) {
    return (
      <div role="alert" className="flex flex-col items-start gap-3 text-sm text-ash-300">
        <p>
          Die E-Mails konnten nicht geladen werden. {errorText(mails.error) ?? 'Ein Fehler ist aufgetreten.'}
        </p>
        <Button
          variant="secondary"
          className="px-4 py-1.5"
          disabled={mails.isFetching}
          onClick={() => void mails.refetch()}
        >
          {mails.isFetching ? 'Lädt...' : 'Erneut versuchen'}
        </Button>
      </div>
    );
  }
  if (mails.data.length === 0) return <p className="text-sm text-ash-300">Noch keine E-Mails versendet</p>;
  return (
    <ul aria-label="E-Mails zur Bewerbung" className="flex flex-col gap-3">
      {mails.data.map((mail) => (
        <MailItem key={mail.id} vehicleId={vehicleId} mail={mail} />
      ))}
    </ul>
  );
}
