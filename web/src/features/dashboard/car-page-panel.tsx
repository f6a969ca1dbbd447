import { carPagePath, CONSENTS, instagramAt } from '@schlosstreffen/shared';
import type { Consent, Vehicle } from '@schlosstreffen/shared/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Checkbox } from '../../components/ui/checkbox';
import { notify, RETRY_HINT } from '../../components/ui/toaster';
import { api } from '../../lib/api';
import { currentUserQueryOptions } from '../../lib/current-user';
import { useWithdrawConsent } from '../account/privacy-mutations';
import { myConsentsQueryOptions } from '../account/privacy-queries';
import { invalidateVehicles } from '../vehicles/vehicle-queries';

/** POST /api/vehicles/{id}/consents/instagram: the car's page shows the owner's Instagram name. */
function useGiveInstagramConsent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (vehicleId: string) =>
      api.post<Consent>(`/api/vehicles/${encodeURIComponent(vehicleId)}/consents/instagram`, {}),
    onSettled: () => invalidateVehicles(queryClient),
  });
}

/**
 * Under a confirmed car with its start number: the link to its public page, and the owner's choice
 * whether that page shows their Instagram name (a consent of its own, off until given).
 */
export function CarPagePanel({ vehicle }: { vehicle: Vehicle }) {
  const consents = useQuery(myConsentsQueryOptions);
  const user = useQuery(currentUserQueryOptions);
  const instagramHandle = user.data?.instagramHandle?.trim() || null;
  const give = useGiveInstagramConsent();
  const withdraw = useWithdrawConsent();
  const startNumber = vehicle.invitation?.startNumber;
  const year = vehicle.edition?.year;
  if (!startNumber || !year) return null;
  const standing = consents.data?.find(
    (consent) => consent.vehicleId === vehicle.id && consent.kind === 'instagram' && !consent.withdrawnAt,
  );
  const busy = consents.isPending || give.isPending || withdraw.isPending;
  const change = (checked: boolean) => {
    if (checked) {
      give.mutate(vehicle.id, {
        onSuccess: () => notify.success('Instagram-Name wird gezeigt'),
        onError: (error) => notify.error('Speichern fehlgeschlagen', error, RETRY_HINT),
      });
    } else if (standing) {
      withdraw.mutate(standing.id, {
        onSuccess: () => notify.success('Instagram-Name wird nicht mehr gezeigt'),
        onError: (error) => notify.error('Widerruf fehlgeschlagen', error, RETRY_HINT),
      });
    }
  };
  return (
    <div className="mt-3 flex flex-col gap-3 border-t border-gold-500/15 pt-3">
      <a
        href={carPagePath(year, startNumber)}
        className="text-sm text-gold-200 underline-offset-4 hover:underline"
      >
        Fahrzeugseite ansehen (Nr. {startNumber})
      </a>
      <Checkbox
        name={`instagram-${vehicle.id}`}
        checked={Boolean(standing)}
        disabled={busy || (!standing && !instagramHandle)}
        onCheckedChange={change}
        label={CONSENTS.instagram.label}
        description={
          instagramHandle
            ? `Zeigt ${instagramAt(instagramHandle)} auf der öffentlichen Seite deines Fahrzeugs.`
            : 'Trage zuerst deinen Instagram-Namen im Profil ein.'
        }
      />
    </div>
  );
}
