import { vehicleDisplayName } from '@schlosstreffen/shared';
import type { Vehicle } from '@schlosstreffen/shared/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { errorText, RETRY_HINT } from '../../components/ui/toaster';
import { api } from '../../lib/api';
import { useCurrentUser } from '../../lib/current-user';
import { invalidateVehicles, myVehiclesQueryOptions } from '../vehicles/vehicle-queries';
import { VehiclePaymentSection } from '../vehicles/vehicle-payment';

interface ConfirmResult {
  status: 'confirmed' | 'already_confirmed';
  message: string;
  vehicleId?: string;
}

const buttonClass =
  'rounded-full bg-gold-500 px-6 py-3 text-sm font-semibold tracking-wide text-night-950 transition-colors hover:bg-gold-400 disabled:cursor-wait disabled:opacity-70';
const linkClass =
  'rounded-full border border-gold-500/40 px-6 py-2.5 text-sm tracking-wide text-gold-300 transition-colors hover:border-gold-400 hover:bg-gold-500/10';

/** A confirmed car holding its place in an edition that is not over, with a fee. */
const owesOrPaidFee = (vehicle: Vehicle) =>
  vehicle.status === 'confirmed' &&
  !!vehicle.invitation &&
  !vehicle.invitation.releasedAt &&
  !!vehicle.payment &&
  vehicle.edition?.phase !== 'over' &&
  vehicle.edition?.phase !== 'archived';

/**
 * After confirming: the fee of the car the link was for (older answers name none: then every
 * confirmed car of the owner's that holds a place with a fee), or where to find it when nobody is
 * signed in.
 */
function FeeAfterConfirming({ vehicleId }: { vehicleId?: string }) {
  const user = useCurrentUser();
  const signedIn = !!user.data;
  const vehicles = useQuery({ ...myVehiclesQueryOptions, enabled: signedIn });
  if (user.isPending) return null;
  if (!signedIn) {
    return (
      <p className="text-sm text-ash-300">
        Fällt ein Startgeld an, findest du Betrag, Bankverbindung und GiroCode in deiner Einladungs-E-Mail und
        nach der Anmeldung unter{' '}
        <Link to="/dashboard" className="text-gold-200 underline underline-offset-4">
          Meine Fahrzeuge
        </Link>
        .
      </p>
    );
  }
  const withFee = (vehicles.data ?? []).filter(
    (vehicle) => owesOrPaidFee(vehicle) && (!vehicleId || vehicle.id === vehicleId),
  );
  if (withFee.length === 0) return null;
  return (
    <div className="flex w-full flex-col gap-4">
      {withFee.map((vehicle) => (
        <VehiclePaymentSection
          key={vehicle.id}
          vehicleId={vehicle.id}
          payment={vehicle.payment}
          vehicleTitle={vehicleDisplayName(vehicle)}
          headingLevel="h2"
        />
      ))}
    </div>
  );
}

/**
 * The invitation mail's confirm link lands here. Confirming takes a click (a POST), so link
 * scanners that open every URL in a mail cannot accept an invitation on the owner's behalf.
 */
export function ConfirmInvitation({ token }: { token: string | undefined }) {
  const queryClient = useQueryClient();
  const confirm = useMutation({
    mutationFn: () => api.post<ConfirmResult>('/api/invitations/confirm', { token }),
    // The car's status (and so which fee shows below) changed.
    onSuccess: () => invalidateVehicles(queryClient),
  });
  const error = confirm.error
    ? (errorText(confirm.error) ?? `Die Bestätigung ist fehlgeschlagen. ${RETRY_HINT}`)
    : undefined;

  return (
    <section className="mx-auto flex w-full max-w-xl flex-1 flex-col justify-center px-4 py-16 sm:px-6 sm:py-24">
      <div className="rounded-2xl border border-white/10 bg-white/5 p-6 text-center sm:p-8">
        <h1 className="font-display text-3xl text-parchment">Einladung bestätigen</h1>
        {confirm.isSuccess ? (
          <div className="mt-6 flex flex-col items-center gap-6">
            <p role="status" className="text-lg text-parchment">
              {confirm.data.message}
            </p>
            <FeeAfterConfirming vehicleId={confirm.data.vehicleId} />
            <Link to="/" className={linkClass}>
              Zur Startseite
            </Link>
          </div>
        ) : !token ? (
          <p role="alert" className="mt-6 text-parchment/80">
            Der Bestätigungslink ist unvollständig. Bitte öffne den Link aus deiner Einladungs-E-Mail erneut.
          </p>
        ) : (
          <div className="mt-6 flex flex-col items-center gap-6">
            <p className="text-parchment/80">
              Du bist mit deinem Fahrzeug zum Schlosstreffen eingeladen. Bestätige hier deine Teilnahme, damit
              wir deinen Platz fest einplanen.
            </p>
            <button
              type="button"
              className={buttonClass}
              disabled={confirm.isPending}
              onClick={() => confirm.mutate()}
            >
              {confirm.isPending ? 'Wird bestätigt...' : 'Teilnahme bestätigen'}
            </button>
            {error && (
              <p role="alert" className="text-sm text-red-300">
                {error}
              </p>
            )}
          </div>
        )}
      </div>
    </section>
  );
}
