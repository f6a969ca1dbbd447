import { formatScore } from '@schlosstreffen/shared';
import type { WaitlistInviteResult, WaitlistOverview } from '@schlosstreffen/shared/api';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from '../../../components/ui/button';
import { Checkbox } from '../../../components/ui/checkbox';
import { notify, RETRY_HINT } from '../../../components/ui/toaster';
import { api, apiGet } from '../../../lib/api';
import { useCurrentUser } from '../../../lib/current-user';
import { formatDate, formatDateTime } from '../../../lib/date-format';
import { invalidateVehicles } from '../../vehicles/vehicle-queries';

/** Under `vehicles`: every status change refreshes it along with the lists. */
export const waitlistQueryOptions = queryOptions({
  queryKey: ['vehicles', 'waitlist'] as const,
  queryFn: () => apiGet<WaitlistOverview>('/api/admin/waitlist'),
});

const panelClass = 'mb-8 rounded-2xl border border-white/10 bg-night-900/70 p-5 sm:p-6';

/**
 * Moving up from the waitlist on the admin dashboard: the rule, free places per zone, the switch
 * (admins) and the next in line. With automatic moving up off (or past the cut-off) each candidate
 * is a 'Nachrücker' suggestion that an admin or reviewer invites with one click.
 */
export function WaitlistPanel() {
  const overview = useQuery(waitlistQueryOptions);
  const user = useCurrentUser();
  const queryClient = useQueryClient();
  const isAdmin = user.data?.role === 'admin';

  const toggle = useMutation({
    mutationFn: (autoMoveUp: boolean) =>
      api.put<WaitlistOverview>('/api/admin/waitlist/settings', { autoMoveUp }),
    onSuccess: (data) => {
      queryClient.setQueryData(waitlistQueryOptions.queryKey, data);
      notify.success(
        data.autoMoveUp ? 'Automatisches Nachrücken an' : 'Automatisches Nachrücken aus',
        data.autoMoveUp
          ? 'Freigegebene Plätze gehen von selbst an die Warteliste.'
          : 'Freigegebene Plätze vergeben Sie selbst über die Nachrücker-Vorschläge.',
      );
      void invalidateVehicles(queryClient);
    },
    onError: (error) => notify.error('Einstellung nicht gespeichert', error, RETRY_HINT),
  });

  const invite = useMutation({
    mutationFn: (vehicleId: string) =>
      api.post<WaitlistInviteResult>('/api/admin/waitlist/invite', { vehicleId }),
    onSuccess: (data) => {
      notify.success(
        'Nachrücker eingeladen',
        `Startnummer ${data.startNumber}, Parkzone ${data.parkingZone}. Die Einladung ist unterwegs.`,
      );
      void invalidateVehicles(queryClient);
    },
    onError: (error) => notify.error('Einladung fehlgeschlagen', error, RETRY_HINT),
  });

  if (overview.isPending) {
    return (
      <section aria-label="Warteliste" aria-busy="true" className={panelClass}>
        <p className="text-sm text-ash-300">Warteliste wird geladen...</p>
      </section>
    );
  }
  if (overview.isError) {
    return (
      <section aria-label="Warteliste" className={panelClass}>
        <p role="alert" className="text-sm text-red-300">
          Die Warteliste konnte nicht geladen werden.
        </p>
      </section>
    );
  }
  const data = overview.data;
  const manual = !data.autoMoveUp || data.pastCutoff;
  const suggest = manual && data.free > 0;

  return (
    <section aria-labelledby="waitlist-heading" className={panelClass}>
      <div className="flex flex-col gap-4 lg:flex-row lg:items-start lg:justify-between">
        <div className="max-w-2xl">
          <h2 id="waitlist-heading" className="font-display text-2xl text-parchment">
            Warteliste und Nachrücken
          </h2>
          <p className="mt-1 text-sm text-ash-300">{data.rule}</p>
          <p className="mt-1 text-sm text-ash-400">
            Nachrücken bis {formatDateTime(data.cutoff)}; danach vergeben Sie Plätze nur noch selbst.
          </p>
        </div>
        <div className="shrink-0">
          {isAdmin ? (
            <Checkbox
              checked={data.autoMoveUp}
              disabled={toggle.isPending}
              onCheckedChange={(checked) => toggle.mutate(checked)}
              label="Automatisches Nachrücken"
              description={
                data.autoMoveUp
                  ? 'Ein freigegebener Platz geht sofort an das nächste Fahrzeug.'
                  : 'Aus: Sie laden Nachrücker selbst ein.'
              }
            />
          ) : (
            <p className="text-sm text-ash-300">
              Automatisches Nachrücken: <strong>{data.autoMoveUp ? 'an' : 'aus'}</strong>
            </p>
          )}
        </div>
      </div>

      <dl className="mt-5 flex flex-wrap gap-3 text-sm">
        <div className="rounded-lg border border-white/10 bg-night-950/60 px-3 py-2">
          <dt className="text-xs text-ash-400">Freie Plätze</dt>
          <dd className="font-semibold text-parchment tabular-nums">{data.free}</dd>
        </div>
        <div className="rounded-lg border border-white/10 bg-night-950/60 px-3 py-2">
          <dt className="text-xs text-ash-400">Freigegeben, noch nicht nachbesetzt</dt>
          <dd className="font-semibold text-parchment tabular-nums">{data.pending}</dd>
        </div>
        {data.zones.map((zone) => (
          <div key={zone.name} className="rounded-lg border border-white/10 bg-night-950/60 px-3 py-2">
            <dt className="text-xs text-ash-400">Parkzone {zone.name}</dt>
            <dd className="font-semibold text-parchment tabular-nums">
              {zone.taken} / {zone.capacity}
            </dd>
          </div>
        ))}
      </dl>

      <h3 className="mt-6 text-sm font-semibold tracking-wide text-gold-300 uppercase">
        {suggest ? 'Nachrücker' : 'Nächste auf der Warteliste'}
      </h3>
      {data.candidates.length === 0 ? (
        <p className="mt-2 text-sm text-ash-300">Die Warteliste ist leer.</p>
      ) : (
        <ol className="mt-3 flex flex-col gap-2">
          {data.candidates.map((candidate) => (
            <li
              key={candidate.vehicle.id}
              className="flex flex-col gap-2 rounded-xl border border-white/10 bg-night-950/60 px-4 py-3 sm:flex-row sm:items-center sm:justify-between"
            >
              <div className="min-w-0">
                <p className="font-medium text-parchment">
                  <span className="mr-2 text-gold-300 tabular-nums">{candidate.rank}.</span>
                  {candidate.vehicle.title}
                </p>
                <p className="text-xs text-ash-400">
                  {candidate.vehicle.ownerName} · Bewertung{' '}
                  {candidate.scoreHidden
                    ? 'verborgen'
                    : candidate.score === null
                      ? 'keine'
                      : formatScore(candidate.score)}{' '}
                  · eingereicht am {formatDate(candidate.submittedAt)}
                </p>
              </div>
              {candidate.conflict ? (
                // The server refuses it too: nobody invites their own car or one of a person they are biased towards.
                <p className="shrink-0 text-xs text-ash-300">
                  {candidate.conflict === 'own' ? 'Eigene Bewerbung' : 'Befangen'}: Über die Einladung
                  entscheidet jemand anderes.
                </p>
              ) : suggest ? (
                <Button
                  className="shrink-0"
                  disabled={invite.isPending}
                  aria-label={`${candidate.vehicle.title} einladen`}
                  onClick={() => invite.mutate(candidate.vehicle.id)}
                >
                  {invite.isPending && invite.variables === candidate.vehicle.id
                    ? 'Wird eingeladen...'
                    : 'Einladen'}
                </Button>
              ) : null}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
