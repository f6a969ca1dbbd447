import {
  EDITION_MESSAGES,
  ownerCanConfirm,
  ownerCanDelete,
  ownerCanSubmit,
  ownerCanWithdraw,
  STAGGER,
} from '@schlosstreffen/shared';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useRef, useState } from 'react';
import { CarPlaceholderIcon, ProfileIcon } from '../../components/icons';
import { Button, buttonClass } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { EmptyState, LoadError, Loading } from '../../components/ui/query-states';
import { notify, RETRY_HINT } from '../../components/ui/toaster';
import type { Vehicle } from '@schlosstreffen/shared/api';
import { entranceDelay } from '../../lib/entrance-delay';
import {
  cardEntranceClass,
  VehicleCard,
  VehicleCardSkeletons,
  vehicleGridClass,
} from '../vehicles/vehicle-card';
import { vehicleDisplayName } from '@schlosstreffen/shared';
import {
  useDeclineMutation,
  useDeleteVehicleMutation,
  useOwnerStatusMutation,
  useReapplyMutation,
  usePendingDeletions,
  usePendingStatusChanges,
  type OwnerStatusChange,
} from '../vehicles/vehicle-mutations';
import { myVehiclesQueryOptions } from '../vehicles/vehicle-queries';
import { siteEventFacts } from '../../lib/event-format';
import { getSiteConfig } from '../../lib/site-config';
import { EmailConfirmNotice } from '../account/email-confirm-notice';
import { MailBouncedNotice } from '../account/mail-bounced-notice';
import { SubmitConsentDialog } from './submit-consent-dialog';

/** Success and error toasts per owner status change; 'confirmed' accepts an invitation. */
const STATUS_TOASTS: Record<
  OwnerStatusChange['status'],
  { success: string; description: string; failure: string }
> = {
  submitted: {
    success: 'Bewerbung eingereicht',
    description: 'Ihr Fahrzeug wurde zur Prüfung eingereicht.',
    failure: 'Einreichung fehlgeschlagen',
  },
  draft: {
    success: 'Bewerbung zurückgezogen',
    description: 'Ihr Fahrzeug wurde aus der Prüfung entfernt.',
    failure: 'Rückzug fehlgeschlagen',
  },
  confirmed: {
    success: 'Teilnahme bestätigt',
    description: 'Wir freuen uns auf Sie und Ihr Fahrzeug beim Schlosstreffen.',
    failure: 'Bestätigung fehlgeschlagen',
  },
};

type PendingDialog = { kind: 'submit' | 'withdraw' | 'delete' | 'decline' | 'reapply'; vehicle: Vehicle };

/** The edition the public site shows: new applications are for it. */
function currentEdition() {
  const facts = siteEventFacts(getSiteConfig());
  return { year: facts.year, name: `${facts.name} ${facts.year}` };
}

/** An application of an earlier edition: a record; its car may apply again unless it has already. */
const isPast = (vehicle: Vehicle, year: number) => Boolean(vehicle.edition && vehicle.edition.year !== year);

/** An invited or confirmed owner may give the place back. */
const canDecline = (vehicle: Vehicle) => vehicle.status === 'invited' || vehicle.status === 'confirmed';

const editLinkId = (vehicleId: string) => `vehicle-${vehicleId}-edit`;

// Actions grow to fill their row, so a wrapped last button spans the card instead of dangling.
const deleteButtonClass = buttonClass(
  'ghost',
  'grow border border-red-400/40 disabled:opacity-60 text-red-300! hover:border-red-300 hover:bg-red-500/10! hover:text-red-200!',
);

function OwnerActions({
  vehicle,
  pendingStatus,
  deleting,
  onSubmit,
  onConfirm,
  onWithdraw,
  onDelete,
  declining,
  onDecline,
  reapply,
}: {
  vehicle: Vehicle;
  pendingStatus: OwnerStatusChange['status'] | undefined;
  deleting: boolean;
  onSubmit: (trigger: HTMLElement) => void;
  onConfirm: () => void;
  onWithdraw: (trigger: HTMLElement) => void;
  onDelete: (trigger: HTMLElement) => void;
  declining: boolean;
  onDecline: (trigger: HTMLElement) => void;
  /** For an earlier edition's application: 'Für {Ausgabe} bewerben', or null when the car has applied. */
  reapply: { label: string; pending: boolean; onClick: (trigger: HTMLElement) => void } | null | undefined;
}) {
  const busy = pendingStatus !== undefined || deleting || declining;
  const title = vehicleDisplayName(vehicle);
  if (reapply !== undefined) {
    return reapply ? (
      <Button
        className="grow"
        disabled={reapply.pending}
        onClick={(event) => reapply.onClick(event.currentTarget)}
      >
        {reapply.pending ? 'Wird übernommen...' : reapply.label}
      </Button>
    ) : (
      <p className="text-sm text-ash-400">Für die aktuelle Ausgabe bereits angemeldet.</p>
    );
  }
  return (
    <>
      <Link
        id={editLinkId(vehicle.id)}
        to="/edit/$id"
        params={{ id: vehicle.id }}
        aria-label={`${title} bearbeiten`}
        className={buttonClass('secondary', 'grow')}
      >
        Bearbeiten
      </Link>
      {ownerCanSubmit(vehicle.status) ? (
        <Button className="grow" disabled={busy} onClick={(event) => onSubmit(event.currentTarget)}>
          {pendingStatus === 'submitted' ? 'Wird eingereicht...' : 'Einreichen'}
        </Button>
      ) : null}
      {ownerCanConfirm(vehicle.status) ? (
        <Button className="grow" disabled={busy} onClick={onConfirm}>
          {pendingStatus === 'confirmed' ? 'Wird bestätigt...' : 'Teilnahme bestätigen'}
        </Button>
      ) : null}
      {canDecline(vehicle) ? (
        <Button
          variant="ghost"
          className="grow border border-white/10 disabled:opacity-60"
          disabled={busy}
          onClick={(event) => onDecline(event.currentTarget)}
        >
          {declining ? 'Wird abgesagt...' : 'Teilnahme absagen'}
        </Button>
      ) : null}
      {ownerCanWithdraw(vehicle.status) ? (
        <Button
          variant="ghost"
          className="grow border border-white/10 disabled:opacity-60"
          disabled={busy}
          onClick={(event) => onWithdraw(event.currentTarget)}
        >
          {pendingStatus === 'draft' ? 'Wird zurückgezogen...' : 'Zurückziehen'}
        </Button>
      ) : null}
      {ownerCanDelete(vehicle.status) ? (
        <button
          type="button"
          className={deleteButtonClass}
          disabled={busy}
          onClick={(event) => onDelete(event.currentTarget)}
        >
          {deleting ? 'Wird gelöscht...' : 'Löschen'}
        </button>
      ) : null}
    </>
  );
}

/** /dashboard (Meine Fahrzeuge): the owner's vehicles with edit, submit, withdraw and delete. */
export function DashboardPage() {
  const vehicles = useQuery(myVehiclesQueryOptions);
  const statusMutation = useOwnerStatusMutation();
  const deleteMutation = useDeleteVehicleMutation();
  const declineMutation = useDeclineMutation();
  const reapplyMutation = useReapplyMutation();
  const current = currentEdition();
  const pendingStatus = usePendingStatusChanges();
  const pendingDeletions = usePendingDeletions();
  const [dialog, setDialog] = useState<PendingDialog | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  // The button that opened the dialog; withdrawing or deleting removes it, so focus needs a new home.
  const dialogTrigger = useRef<{ element: HTMLElement; vehicleId: string } | null>(null);

  const openDialog = (kind: PendingDialog['kind'], vehicle: Vehicle, trigger: HTMLElement) => {
    dialogTrigger.current = { element: trigger, vehicleId: vehicle.id };
    setDialog({ kind, vehicle });
  };

  /** The trigger when it still exists (null: the dialog's default), else the card's edit link or the heading. */
  const focusAfterDialog = (): HTMLElement | null => {
    const trigger = dialogTrigger.current;
    if (!trigger || trigger.element.isConnected) return null;
    return document.getElementById(editLinkId(trigger.vehicleId)) ?? headingRef.current;
  };

  const changeStatus = (change: OwnerStatusChange, onSettled?: () => void) => {
    const texts = STATUS_TOASTS[change.status];
    statusMutation.mutate(change, {
      onSuccess: () => notify.success(texts.success, texts.description),
      onError: (error) => notify.error(texts.failure, error, RETRY_HINT),
      onSettled: () => {
        onSettled?.();
        // The pressed button was disabled (and may be gone now): keep keyboard users on the card.
        const active = document.activeElement;
        if (!active || active === document.body) document.getElementById(editLinkId(change.id))?.focus();
      },
    });
  };

  const closeOnDismiss = (open: boolean) => {
    if (!open) setDialog(null);
  };

  const decline = (vehicle: Vehicle) => {
    declineMutation.mutate(vehicle.id, {
      onSuccess: () =>
        notify.success('Teilnahme abgesagt', 'Ihr Platz wurde an die Warteliste weitergegeben.'),
      onError: (error) => notify.error('Absage fehlgeschlagen', error, RETRY_HINT),
      onSettled: () => setDialog(null),
    });
  };

  const reapply = (vehicle: Vehicle) => {
    reapplyMutation.mutate(vehicle.id, {
      onSuccess: () =>
        notify.success(
          'Bewerbung übernommen',
          `Daten und Fotos sind übernommen. Prüfen Sie sie und reichen Sie die Bewerbung für ${current.name} ein.`,
        ),
      onError: (error) => notify.error('Übernahme fehlgeschlagen', error, RETRY_HINT),
      onSettled: () => setDialog(null),
    });
  };

  const removeVehicle = (vehicle: Vehicle) => {
    deleteMutation.mutate(vehicle.id, {
      onSuccess: () => notify.success('Fahrzeug gelöscht', 'Ihr Fahrzeug wurde erfolgreich gelöscht.'),
      onError: (error) => notify.error('Löschen fehlgeschlagen', error, RETRY_HINT),
      onSettled: () => setDialog(null),
    });
  };

  const list = vehicles.data ?? [];
  // Cars with an application in the current edition: their earlier ones offer nothing more.
  const appliedCars = new Set(
    list.filter((vehicle) => !isPast(vehicle, current.year)).map((vehicle) => vehicle.carId ?? vehicle.id),
  );
  const editionsShown = new Set(list.map((vehicle) => vehicle.edition?.year ?? current.year)).size > 1;
  const hasVehicles = list.length > 0;
  const dialogVehicle = dialog?.vehicle;
  const dialogTitle = dialogVehicle ? vehicleDisplayName(dialogVehicle) : '';

  return (
    <section className="mx-auto w-full max-w-6xl flex-1 px-4 py-10 sm:px-6 sm:py-14">
      <div className="flex flex-col gap-6 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <p className="text-xs tracking-[0.3em] text-gold-400 uppercase">Dashboard</p>
          <h1
            ref={headingRef}
            tabIndex={-1}
            className="mt-2 font-display text-4xl text-parchment focus:outline-none"
          >
            Meine Fahrzeuge
          </h1>
          <p className="mt-2 max-w-xl text-sm text-ash-300">
            Hier verwalten Sie Ihre Fahrzeuge und Bewerbungen für das Schlosstreffen.
          </p>
        </div>
        <div className="flex flex-col gap-3 sm:flex-row">
          <Link to="/" className={buttonClass('ghost', 'border border-white/10')}>
            <span aria-hidden="true">←</span> Zur Startseite
          </Link>
          <Link to="/profile" className={buttonClass('secondary')}>
            <ProfileIcon className="size-4" />
            Mein Profil
          </Link>
          <Link to="/apply" className={buttonClass('primary')}>
            <span aria-hidden="true">+</span>{' '}
            {hasVehicles ? 'Weiteres Fahrzeug anmelden' : 'Fahrzeug anmelden'}
          </Link>
        </div>
      </div>

      <EmailConfirmNotice className="mt-8" />
      <MailBouncedNotice className="mt-8" />
      <div className="mt-10">
        {vehicles.isPending ? (
          <Loading label="Fahrzeuge werden geladen...">
            <VehicleCardSkeletons actions={2} />
          </Loading>
        ) : vehicles.isError ? (
          <LoadError title="Fahrzeuge konnten nicht geladen werden" query={vehicles} />
        ) : !hasVehicles ? (
          <EmptyState
            icon={<CarPlaceholderIcon className="size-11" />}
            title="Noch keine Fahrzeuge"
            action={
              <Link to="/apply" className={buttonClass('primary', 'mt-8')}>
                Erstes Fahrzeug anmelden
              </Link>
            }
          >
            Melden Sie Ihr erstes Fahrzeug an und bewerben Sie sich für einen Platz beim Schlosstreffen.
          </EmptyState>
        ) : (
          <ul aria-label="Meine Fahrzeuge" className={vehicleGridClass}>
            {list.map((vehicle, index) => (
              <li
                key={vehicle.id}
                style={{ transitionDelay: entranceDelay(index, STAGGER.ownerSeconds) }}
                className={cardEntranceClass}
              >
                <VehicleCard
                  vehicle={vehicle}
                  editionLabel={
                    editionsShown || isPast(vehicle, current.year) ? vehicle.edition?.name : undefined
                  }
                  actions={
                    <OwnerActions
                      vehicle={vehicle}
                      pendingStatus={pendingStatus.get(vehicle.id)}
                      deleting={pendingDeletions.has(vehicle.id)}
                      onSubmit={(trigger) => openDialog('submit', vehicle, trigger)}
                      onConfirm={() => changeStatus({ id: vehicle.id, status: 'confirmed' })}
                      onWithdraw={(trigger) => openDialog('withdraw', vehicle, trigger)}
                      onDelete={(trigger) => openDialog('delete', vehicle, trigger)}
                      declining={declineMutation.isPending && declineMutation.variables === vehicle.id}
                      onDecline={(trigger) => openDialog('decline', vehicle, trigger)}
                      reapply={
                        !isPast(vehicle, current.year)
                          ? undefined
                          : appliedCars.has(vehicle.carId ?? vehicle.id)
                            ? null
                            : {
                                label: EDITION_MESSAGES.reapplyButton(current.name),
                                pending:
                                  reapplyMutation.isPending && reapplyMutation.variables === vehicle.id,
                                onClick: (trigger) => openDialog('reapply', vehicle, trigger),
                              }
                      }
                    />
                  }
                />
              </li>
            ))}
          </ul>
        )}
      </div>

      <SubmitConsentDialog
        open={dialog?.kind === 'submit'}
        onOpenChange={closeOnDismiss}
        title={dialogTitle}
        finalFocusEl={focusAfterDialog}
        pending={dialogVehicle ? pendingStatus.get(dialogVehicle.id) === 'submitted' : false}
        onSubmit={(consents) => {
          if (dialogVehicle) {
            changeStatus({ id: dialogVehicle.id, status: 'submitted', consents }, () => setDialog(null));
          }
        }}
      />

      <ConfirmDialog
        open={dialog?.kind === 'withdraw'}
        onOpenChange={closeOnDismiss}
        title="Bewerbung zurückziehen?"
        finalFocusEl={focusAfterDialog}
        confirmLabel="Zurückziehen"
        pendingLabel="Wird zurückgezogen..."
        pending={dialogVehicle ? pendingStatus.get(dialogVehicle.id) === 'draft' : false}
        onConfirm={() => {
          if (dialogVehicle) {
            changeStatus({ id: dialogVehicle.id, status: 'draft' }, () => setDialog(null));
          }
        }}
      >
        Der Status von „{dialogTitle}“ wird auf „Entwurf“ zurückgesetzt. Das Fahrzeug wird aus der Prüfung
        genommen und kann später erneut eingereicht werden.
      </ConfirmDialog>

      <ConfirmDialog
        open={dialog?.kind === 'decline'}
        onOpenChange={closeOnDismiss}
        title="Teilnahme absagen?"
        finalFocusEl={focusAfterDialog}
        confirmLabel="Teilnahme absagen"
        pendingLabel="Wird abgesagt..."
        destructive
        pending={declineMutation.isPending}
        onConfirm={() => {
          if (dialogVehicle) decline(dialogVehicle);
        }}
      >
        Ihr Platz mit „{dialogTitle}“ wird freigegeben und geht an das nächste Fahrzeug auf der Warteliste;
        die Startnummer verfällt. Die Absage lässt sich nicht rückgängig machen.
      </ConfirmDialog>

      <ConfirmDialog
        open={dialog?.kind === 'reapply'}
        onOpenChange={closeOnDismiss}
        title={EDITION_MESSAGES.reapplyButton(current.name)}
        finalFocusEl={focusAfterDialog}
        confirmLabel="Übernehmen"
        pendingLabel="Wird übernommen..."
        pending={reapplyMutation.isPending}
        onConfirm={() => {
          if (dialogVehicle) reapply(dialogVehicle);
        }}
      >
        „{dialogTitle}“ wird mit seinen Daten und Fotos als Entwurf für {current.name} übernommen; Sie können
        alles ändern, bevor Sie einreichen. Die Bewerbung von {dialogVehicle?.edition?.name ?? 'damals'}{' '}
        bleibt, wie sie war. Beim Einreichen stimmen Sie den Einwilligungen für die neue Bewerbung erneut zu.
      </ConfirmDialog>

      <ConfirmDialog
        open={dialog?.kind === 'delete'}
        onOpenChange={closeOnDismiss}
        title="Fahrzeug löschen?"
        finalFocusEl={focusAfterDialog}
        confirmLabel="Löschen"
        pendingLabel="Wird gelöscht..."
        destructive
        pending={dialogVehicle ? pendingDeletions.has(dialogVehicle.id) : false}
        onConfirm={() => {
          if (dialogVehicle) removeVehicle(dialogVehicle);
        }}
      >
        Diese Aktion kann nicht rückgängig gemacht werden. „{dialogTitle}“ und alle zugehörigen Daten werden
        dauerhaft gelöscht.
      </ConfirmDialog>
    </section>
  );
}
