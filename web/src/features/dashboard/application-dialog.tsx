import { Dialog } from '@ark-ui/react/dialog';
import { Portal } from '@ark-ui/react/portal';
import {
  driveTypeLabel,
  formatSpec,
  FUEL_LABELS,
  STATUS_LABELS,
  vehicleDisplayName,
  vehicleSubline,
} from '@schlosstreffen/shared';
import type { Vehicle } from '@schlosstreffen/shared/api';
import { XMarkIcon } from '../../components/ui/icons';
import { cropStyle } from '../media/crop';
import { TuningCategoryList, tuningCategoriesOf } from '../vehicles/vehicle-card';
import type { ApplicationView } from './application-view';

const text = (value: string | null | undefined) => value?.trim() || null;

/**
 * 'Ansehen': an application of an edition that is over, as it stands (read only): its edition,
 * status and outcome, the photos, the data and the descriptions.
 */
export function ApplicationDialog({
  vehicle,
  view,
  open,
  onOpenChange,
  finalFocusEl,
}: {
  vehicle: Vehicle | undefined;
  view: ApplicationView | undefined;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  finalFocusEl?: () => HTMLElement | null;
}) {
  const facts = vehicle
    ? [
        { label: 'Marke', value: vehicle.brand },
        { label: 'Modell', value: vehicle.model },
        { label: 'Baujahr', value: String(vehicle.year) },
        { label: 'Farbe', value: text(vehicle.color) ?? '–' },
        { label: 'Leistung', value: formatSpec(vehicle.ps, 'PS') },
        { label: 'Drehmoment', value: formatSpec(vehicle.torqueNm, 'Nm') },
        { label: '0-100 km/h', value: formatSpec(vehicle.zeroToHundredS, 's') },
        { label: 'Höchstgeschwindigkeit', value: formatSpec(vehicle.topSpeedKmh, 'km/h') },
        { label: 'Gewicht', value: formatSpec(vehicle.weightKg, 'kg') },
        { label: 'Antrieb', value: driveTypeLabel(vehicle.driveType) },
        { label: 'Kraftstoff', value: vehicle.fuelType ? FUEL_LABELS[vehicle.fuelType] : '–' },
        { label: 'Zylinder', value: formatSpec(vehicle.cylinders) },
      ]
    : [];
  const texts = vehicle
    ? [
        { label: 'Kurzbeschreibung', value: text(vehicle.descriptionShort) },
        { label: 'Beschreibung', value: text(vehicle.descriptionLong) },
        { label: 'Besondere Umbauten', value: text(vehicle.specialMods) },
      ].filter((entry) => entry.value)
    : [];
  const photos = vehicle?.media.filter((item) => item.type === 'image') ?? [];

  return (
    <Dialog.Root
      open={open && vehicle !== undefined}
      onOpenChange={(details) => onOpenChange(details.open)}
      finalFocusEl={finalFocusEl}
      lazyMount
      unmountOnExit
    >
      <Portal>
        <Dialog.Backdrop className="fixed inset-0 z-50 bg-black/75 backdrop-blur-sm" />
        <Dialog.Positioner className="fixed inset-0 z-50 flex items-end justify-center sm:items-center sm:p-6">
          {vehicle ? (
            <Dialog.Content className="flex max-h-[100dvh] w-full max-w-3xl flex-col overflow-hidden border border-white/10 bg-night-900 shadow-2xl shadow-black/60 focus:outline-none sm:max-h-[90dvh] sm:rounded-2xl">
              <header className="flex items-start justify-between gap-4 border-b border-white/10 px-5 pt-5 pb-4 sm:px-6">
                <div className="min-w-0">
                  <Dialog.Title className="font-display text-2xl leading-tight text-parchment sm:text-3xl">
                    {vehicleDisplayName(vehicle)}
                  </Dialog.Title>
                  <Dialog.Description className="mt-1.5 text-sm text-ash-300">
                    {[
                      view?.edition.name,
                      STATUS_LABELS[vehicle.status],
                      view?.outcome?.title,
                      view?.outcome?.detail,
                    ]
                      .filter(Boolean)
                      .join(' · ')}
                  </Dialog.Description>
                </div>
                <Dialog.CloseTrigger
                  aria-label="Schließen"
                  title="Schließen"
                  className="inline-flex size-9 shrink-0 items-center justify-center rounded-full border border-white/10 text-ash-300 transition-colors hover:border-gold-400/60 hover:text-parchment"
                >
                  <XMarkIcon className="size-4" />
                </Dialog.CloseTrigger>
              </header>
              <div className="flex flex-col gap-6 overflow-y-auto px-5 py-5 sm:px-6">
                {photos.length ? (
                  <ul aria-label="Fotos" className="grid grid-cols-2 gap-3 sm:grid-cols-3">
                    {photos.map((photo, index) => (
                      <li
                        key={photo.id}
                        className="aspect-[4/3] overflow-hidden rounded-lg border border-white/10 bg-night-950"
                      >
                        <img
                          src={photo.thumbnailUrl ?? photo.url}
                          alt={photo.altText?.trim() || `${vehicleDisplayName(vehicle)}, Foto ${index + 1}`}
                          loading="lazy"
                          className="size-full object-cover"
                          style={cropStyle(photo.cropX, photo.cropY, photo.scale)}
                        />
                      </li>
                    ))}
                  </ul>
                ) : null}
                <section aria-label="Daten">
                  <p className="text-sm text-ash-300">{vehicleSubline(vehicle)}</p>
                  <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-3 sm:grid-cols-4">
                    {facts.map((fact) => (
                      <div key={fact.label} className="min-w-0">
                        <dt className="text-xs text-ash-400">{fact.label}</dt>
                        <dd className="mt-0.5 text-sm font-medium break-words text-parchment">
                          {fact.value}
                        </dd>
                      </div>
                    ))}
                  </dl>
                </section>
                {tuningCategoriesOf(vehicle).length ? (
                  <TuningCategoryList categories={tuningCategoriesOf(vehicle)} />
                ) : null}
                {texts.map((entry) => (
                  <section key={entry.label} aria-label={entry.label}>
                    <h3 className="text-xs text-ash-400">{entry.label}</h3>
                    <p className="mt-1 text-sm leading-relaxed whitespace-pre-line text-parchment">
                      {entry.value}
                    </p>
                  </section>
                ))}
              </div>
            </Dialog.Content>
          ) : null}
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
