import { EDITION_MESSAGES, STAGGER } from '@schlosstreffen/shared';
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
import { holdsSign, vehicleDisplayName } from '@schlosstreffen/shared';
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
import { WindshieldSignButton } from '../vehicles/windshield-sign';
import { useSitePhase } from '../../lib/app-clock';
import { applicationDates, siteEventFacts } from '../../lib/event-format';
import { getSiteConfig } from '../../lib/site-config';
import {
  applicationView,
  applyHint,
  editionLine,
  editionOf,
  type ApplicationView,
  type CurrentEdition,
} from './application-view';
import { ApplicationDialog } from './application-dialog';
import { EmailConfirmNotice } from '../account/email-confirm-notice';
import { MailBouncedNotice } from '../account/mail-bounced-notice';
import { JuryPlaceBadges } from '../results/jury-results-block';
import { CarPagePanel } from './car-page-panel';
import { VehiclePaymentSection } from '../vehicles/vehicle-payment';
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

type PendingDialog = {
  kind: 'submit' | 'withdraw' | 'delete' | 'decline' | 'reapply' | 'view';
  vehicle: Vehicle;
};

/** The edition the public site shows, in its phase by the app's clock: new applications are for it. */
function useCurrentEdition(): CurrentEdition {
  const config = getSiteConfig();
  const facts = siteEventFacts(config);
  return {
    year: facts.year,
    name: `${facts.name} ${facts.year}`,
    phase: useSitePhase(),
    ...applicationDates(config),
  };
}

/** The card's first action (its edit link, or 'Ansehen'): where focus goes when a dialog's trigger is gone. */
const cardActionId = (vehicleId: string) => `vehicle-${vehicleId}-edit`;

/** The applications by edition, the newest edition first (the list's order within each). */
function byEdition(list: Vehicle[], current: CurrentEdition) {
  const groups = new Map<number, { edition: ApplicationView['edition']; vehicles: Vehicle[] }>();
  for (const vehicle of list) {
    const edition = editionOf(vehicle, current);
    const group = groups.get(edition.year) ?? { edition, vehicles: [] };
    group.vehicles.push(vehicle);
    groups.set(edition.year, group);
  }
  return [...groups.values()].sort((a, b) => b.edition.year - a.edition.year);
}

// Actions grow to fill their row, so a wrapped last button spans the card instead of dangling.
const deleteButtonClass = buttonClass(
  'ghost',
  'grow border border-red-400/40 disabled:opacity-60 text-red-300! hover:border-red-300 hover:bg-red-500/10! hover:text-red-200!',
);

function OwnerActions({
  vehicle,
  view,
  pendingStatus,
  deleting,
  declining,
  carryingOver,
  onView,
  onSubmit,
  onConfirm,
  onWithdraw,
  onDelete,
  onDecline,
  onCarryOver,
}: {
  vehicle: Vehicle;
  view: ApplicationView;
  pendingStatus: OwnerStatusChange['status'] | undefined;
  deleting: boolean;
  declining: boolean;
  carryingOver: boolean;
  onView: (trigger: HTMLElement) => void;
  onSubmit: (trigger: HTMLElement) => void;
  onConfirm: () => void;
  onWithdraw: (trigger: HTMLElement) => void;
  onDelete: (trigger: HTMLElement) => void;
  onDecline: (trigger: HTMLElement) => void;
  onCarryOver: (trigger: HTMLElement) => void;
}) {
  const busy = pendingStatus !== undefined || deleting || declining;
  const title = vehicleDisplayName(vehicle);
  const note = view.note ? <p className="w-full text-sm text-ash-400">{view.note}</p> : null;
  const payment = vehicle.payment ? (
    <VehiclePaymentSection vehicleId={vehicle.id} payment={vehicle.payment} className="w-full" />
  ) : null;
  if (view.frozen) {
    // A record: to look at, and its car's way into the current edition.
    return (
      <>
        <Button
          id={cardActionId(vehicle.id)}
          variant="secondary"
          className="grow"
          aria-label={`${title} ansehen`}
          onClick={(event) => onView(event.currentTarget)}
        >
          Ansehen
        </Button>
        {view.carryOver ? (
          <Button
            className="grow"
            disabled={carryingOver}
            onClick={(event) => onCarryOver(event.currentTarget)}
          >
            {carryingOver ? 'Wird übernommen...' : view.carryOver}
          </Button>
        ) : null}
        {note}
        {payment}
      </>
    );
  }
  return (
    <>
      {view.canEdit ? (
        <Link
          id={cardActionId(vehicle.id)}
          to="/edit/$id"
          params={{ id: vehicle.id }}
          aria-label={`${title} bearbeiten`}
          className={buttonClass('secondary', 'grow')}
        >
          Bearbeiten
        </Link>
      ) : null}
      {view.canSubmit ? (
        <Button className="grow" disabled={busy} onClick={(event) => onSubmit(event.currentTarget)}>
          {pendingStatus === 'submitted' ? 'Wird eingereicht...' : 'Einreichen'}
        </Button>
      ) : null}
      {view.canConfirm ? (
        <Button className="grow" disabled={busy} onClick={onConfirm}>
          {pendingStatus === 'confirmed' ? 'Wird bestätigt...' : 'Teilnahme bestätigen'}
        </Button>
      ) : null}
      {holdsSign(vehicle) ? (
        <WindshieldSignButton vehicleId={vehicle.id} title={title} className="grow" />
      ) : null}
      {view.canDecline ? (
        <Button
          variant="ghost"
          className="grow border border-white/10 disabled:opacity-60"
          disabled={busy}
          onClick={(event) => onDecline(event.currentTarget)}
        >
          {declining ? 'Wird abgesagt...' : 'Teilnahme absagen'}
        </Button>
      ) : null}
      {view.canWithdraw ? (
        <Button
          variant="ghost"
          className="grow border border-white/10 disabled:opacity-60"
          disabled={busy}
          onClick={(event) => onWithdraw(event.currentTarget)}
        >
          {pendingStatus === 'draft' ? 'Wird zurückgezogen...' : 'Zurückziehen'}
        </Button>
      ) : null}
      {view.canDelete ? (
        <button
          type="button"
          className={deleteButtonClass}
          disabled={busy}
          onClick={(event) => onDelete(event.currentTarget)}
        >
          {deleting ? 'Wird gelöscht...' : 'Löschen'}
        </button>
      ) : null}
      {note}
      {payment}
      {vehicle.status === 'confirmed' && vehicle.invitation && !vehicle.invitation.releasedAt ? (
        <div className="w-full">
          <CarPagePanel vehicle={vehicle} />
        </div>
      ) : null}
    </>
  );
}

/** A past application's outcome on its card: took part, did not come, or how it ended. */
function OutcomeLine({ view }: { view: ApplicationView }) {
  if (!view.outcome) return null;
  const { title, detail, tookPart } = view.outcome;
  return (
    <div data-testid="outcome" className="mt-2">
      <p className={`text-sm font-semibold ${tookPart ? 'text-gold-300' : 'text-parchment'}`}>{title}</p>
      {detail ? <p className="text-xs text-ash-300">{detail}</p> : null}
    </div>
  );
}

/**
 * /dashboard (Meine Fahrzeuge): the owner's applications by edition, the newest first. Those of the
 * current edition with what its phase allows (edit, submit, withdraw, confirm or decline, delete); an
 * edition that is over shows what each came to, 'Ansehen' and its car's way into the current edition.
 */
export function DashboardPage() {
  const vehicles = useQuery(myVehiclesQueryOptions);
  const statusMutation = useOwnerStatusMutation();
  const deleteMutation = useDeleteVehicleMutation();
  const declineMutation = useDeclineMutation();
  const reapplyMutation = useReapplyMutation();
  const current = useCurrentEdition();
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
    return document.getElementById(cardActionId(trigger.vehicleId)) ?? headingRef.current;
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
        if (!active || active === document.body) document.getElementById(cardActionId(change.id))?.focus();
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
    list
      .filter((vehicle) => editionOf(vehicle, current).year === current.year)
      .map((vehicle) => vehicle.carId ?? vehicle.id),
  );
  const views = new Map(list.map((vehicle) => [vehicle.id, applicationView(vehicle, current, appliedCars)]));
  const groups = byEdition(list, current);
  const hasVehicles = list.length > 0;
  const hint = applyHint(current);
  const dialogVehicle = dialog?.vehicle;
  const dialogTitle = dialogVehicle ? vehicleDisplayName(dialogVehicle) : '';
  const dialogView = dialogVehicle ? views.get(dialogVehicle.id) : undefined;
  let cardIndex = 0;

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
          {hint ? null : (
            <Link to="/apply" className={buttonClass('primary')}>
              <span aria-hidden="true">+</span>{' '}
              {hasVehicles ? 'Weiteres Fahrzeug anmelden' : 'Fahrzeug anmelden'}
            </Link>
          )}
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
              hint ? undefined : (
                <Link to="/apply" className={buttonClass('primary', 'mt-8')}>
                  Erstes Fahrzeug anmelden
                </Link>
              )
            }
          >
            {hint ??
              'Melden Sie Ihr erstes Fahrzeug an und bewerben Sie sich für einen Platz beim Schlosstreffen.'}
          </EmptyState>
        ) : (
          <div className="flex flex-col gap-12">
            {groups.map(({ edition, vehicles: inEdition }) => {
              const headingId = `edition-${edition.year}`;
              const line = editionLine(edition, current);
              return (
                <section key={edition.year} aria-labelledby={headingId}>
                  <div className="mb-5 flex flex-col gap-1 border-b border-gold-500/15 pb-3 sm:flex-row sm:items-baseline sm:justify-between">
                    <h2 id={headingId} className="font-display text-2xl text-gold-200">
                      {edition.name}
                    </h2>
                    {line ? <p className="text-sm text-ash-300">{line}</p> : null}
                  </div>
                  <ul aria-label={edition.name} className={vehicleGridClass}>
                    {inEdition.map((vehicle) => {
                      const view = views.get(vehicle.id)!;
                      return (
                        <li
                          key={vehicle.id}
                          style={{ transitionDelay: entranceDelay(cardIndex++, STAGGER.ownerSeconds) }}
                          className={cardEntranceClass}
                        >
                          <VehicleCard
                            vehicle={vehicle}
                            headingLevel="h3"
                            outcome={
                              view.frozen || vehicle.juryPlaces?.length ? (
                                <>
                                  {view.frozen ? <OutcomeLine view={view} /> : null}
                                  <JuryPlaceBadges places={vehicle.juryPlaces} className="mt-2" compact />
                                </>
                              ) : undefined
                            }
                            actions={
                              <OwnerActions
                                vehicle={vehicle}
                                view={view}
                                pendingStatus={pendingStatus.get(vehicle.id)}
                                deleting={pendingDeletions.has(vehicle.id)}
                                declining={
                                  declineMutation.isPending && declineMutation.variables === vehicle.id
                                }
                                carryingOver={
                                  reapplyMutation.isPending && reapplyMutation.variables === vehicle.id
                                }
                                onView={(trigger) => openDialog('view', vehicle, trigger)}
                                onSubmit={(trigger) => openDialog('submit', vehicle, trigger)}
                                onConfirm={() => changeStatus({ id: vehicle.id, status: 'confirmed' })}
                                onWithdraw={(trigger) => openDialog('withdraw', vehicle, trigger)}
                                onDelete={(trigger) => openDialog('delete', vehicle, trigger)}
                                onDecline={(trigger) => openDialog('decline', vehicle, trigger)}
                                onCarryOver={(trigger) => openDialog('reapply', vehicle, trigger)}
                              />
                            }
                          />
                        </li>
                      );
                    })}
                  </ul>
                </section>
              );
            })}
          </div>
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
        genommen und kann{' '}
        {dialogView?.edition.phase === 'open'
          ? 'später erneut eingereicht werden.'
          : `nach dem Bewerbungsschluss (${current.deadlineDate}) nicht erneut eingereicht werden.`}
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
        title={dialogView?.carryOver ?? EDITION_MESSAGES.reapplyButton(current.name)}
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

      <ApplicationDialog
        open={dialog?.kind === 'view'}
        onOpenChange={closeOnDismiss}
        vehicle={dialogVehicle}
        view={dialogView}
        finalFocusEl={focusAfterDialog}
      />

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
