import { Dialog } from '@ark-ui/react/dialog';
import { Portal } from '@ark-ui/react/portal';
import { Tabs } from '@ark-ui/react/tabs';
import { driveTypeLabel, FUEL_LABELS, isStaffRole } from '@schlosstreffen/shared';
import { useState, type ReactNode } from 'react';
import { XMarkIcon } from '../../../components/ui/icons';
import { CarPlaceholderIcon } from '../../../components/icons';
import type { Media, Vehicle } from '@schlosstreffen/shared/api';
import { useCurrentUser } from '../../../lib/current-user';
import { cropStyle, heroOf } from '../../media/crop';
import { StatusBadge } from '../../vehicles/status-badge';
import { WindshieldSignButton } from '../../vehicles/windshield-sign';
import { TuningCategoryList, tuningCategoriesOf } from '../../vehicles/vehicle-card';
import { formatSpec, holdsSign, personLabel, vehicleDisplayName } from '@schlosstreffen/shared';
import { AdminPanel, NOT_GIVEN } from './vehicle-detail-dialog-admin';

const tabTriggerClass =
  'relative inline-flex shrink-0 cursor-pointer items-center gap-2 px-1 py-3 text-sm font-semibold text-ash-300 transition-colors hover:text-parchment focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-gold-400 data-[selected]:text-gold-200';

const countClass =
  'min-w-6 rounded-full bg-white/10 px-1.5 py-px text-center text-xs font-semibold tabular-nums text-parchment';

function text(value: string | null | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="rounded-xl border border-white/10 bg-night-950/60 p-4 sm:p-5">
      <h3 className="text-xs font-semibold tracking-[0.2em] text-gold-400 uppercase">{title}</h3>
      <div className="mt-3">{children}</div>
    </section>
  );
}

function Facts({ items }: { items: { label: string; value: ReactNode }[] }) {
  return (
    <dl className="grid grid-cols-2 gap-x-4 gap-y-3 sm:grid-cols-4">
      {items.map((item) => (
        <div key={item.label} className="min-w-0">
          <dt className="text-xs text-ash-400">{item.label}</dt>
          <dd className="mt-0.5 text-sm font-medium break-words text-parchment">{item.value}</dd>
        </div>
      ))}
    </dl>
  );
}

function LongText({ label, value }: { label: string; value: string | undefined }) {
  if (!value) return null;
  return (
    <div>
      <h4 className="text-xs text-ash-400">{label}</h4>
      <p className="mt-1 text-sm leading-relaxed whitespace-pre-line text-parchment">{value}</p>
    </div>
  );
}

/** Details tab: the application's data as the applicant entered it. */
function DetailsPanel({ vehicle }: { vehicle: Vehicle }) {
  const basics = [
    { label: 'Marke', value: vehicle.brand },
    { label: 'Modell', value: vehicle.model },
    { label: 'Baujahr', value: String(vehicle.year) },
    { label: 'Farbe', value: text(vehicle.color) ?? NOT_GIVEN },
  ];
  const name = text(vehicle.name);
  if (name) basics.push({ label: 'Name auf der Karte', value: name });
  const plate = text(vehicle.licensePlate);
  if (plate) basics.push({ label: 'Kennzeichen', value: plate });
  const vin = text(vehicle.vin);
  if (vin) basics.push({ label: 'FIN', value: vin });

  const performance = [
    { label: 'Leistung', value: formatSpec(vehicle.ps, 'PS') },
    { label: 'Gewicht', value: formatSpec(vehicle.weightKg, 'kg') },
    { label: '0-100 km/h', value: formatSpec(vehicle.zeroToHundredS, 's') },
    { label: 'Höchstgeschwindigkeit', value: formatSpec(vehicle.topSpeedKmh, 'km/h') },
  ];
  if (vehicle.torqueNm != null)
    performance.push({ label: 'Drehmoment', value: formatSpec(vehicle.torqueNm, 'Nm') });
  if (vehicle.driveType) performance.push({ label: 'Antrieb', value: driveTypeLabel(vehicle.driveType) });
  if (vehicle.fuelType) {
    performance.push({ label: 'Kraftstoff', value: FUEL_LABELS[vehicle.fuelType] ?? vehicle.fuelType });
  }
  if (vehicle.cylinders != null)
    performance.push({ label: 'Zylinder', value: formatSpec(vehicle.cylinders) });
  if (vehicle.displacementCcm != null) {
    performance.push({ label: 'Hubraum', value: formatSpec(vehicle.displacementCcm, 'ccm') });
  }
  if (vehicle.quarterMileS != null) {
    performance.push({ label: 'Viertelmeile', value: formatSpec(vehicle.quarterMileS, 's') });
  }

  const categories = tuningCategoriesOf(vehicle);
  const short = text(vehicle.descriptionShort);
  const long = text(vehicle.descriptionLong);
  const mods = text(vehicle.specialMods);
  const invitation = vehicle.invitation;

  return (
    <div className="flex flex-col gap-4">
      {invitation ? (
        <Section title="Einladung">
          <Facts
            items={[
              { label: 'Startnummer', value: String(invitation.startNumber) },
              { label: 'Parkzone', value: invitation.parkingZone },
            ]}
          />
          {holdsSign(vehicle) ? (
            <WindshieldSignButton
              vehicleId={vehicle.id}
              title={vehicleDisplayName(vehicle)}
              className="mt-4 w-full sm:w-auto"
            />
          ) : null}
        </Section>
      ) : null}
      <Section title="Fahrzeug">
        <Facts items={basics} />
      </Section>
      <Section title="Leistungsdaten">
        <Facts items={performance} />
      </Section>
      <Section title="Tuning">
        <div className="flex flex-col gap-4">
          <div>
            <h4 className="text-xs text-ash-400">Tuning-Kategorien</h4>
            {categories.length > 0 ? (
              <TuningCategoryList categories={categories} className="mt-1.5" />
            ) : (
              <p className="mt-1 text-sm text-parchment">{NOT_GIVEN}</p>
            )}
          </div>
          <LongText label="Kurzbeschreibung" value={short} />
          <LongText label="Ausführliche Beschreibung" value={long} />
          <LongText label="Besondere Modifikationen" value={mods} />
          {!short && !long && !mods ? (
            <p className="text-sm text-ash-300">Keine Beschreibung angegeben.</p>
          ) : null}
        </div>
      </Section>
    </div>
  );
}

/** An image in its box with the stored framing; a placeholder when it fails to load. */
function FramedImage({ media, alt, sizes }: { media: Media; alt: string; sizes: string }) {
  const sources = [
    ...new Set(
      [media.thumbnails?.['1280'], media.thumbnails?.['480'], media.thumbnailUrl, media.url].filter(
        (src): src is string => !!src,
      ),
    ),
  ];
  const [failed, setFailed] = useState<readonly string[]>([]);
  const src = sources.find((candidate) => !failed.includes(candidate));
  if (!src) {
    return (
      <div className="flex size-full items-center justify-center bg-night-800 text-gold-500/50">
        <CarPlaceholderIcon className="size-10" />
      </div>
    );
  }
  return (
    <img
      key={src}
      src={src}
      alt={alt}
      sizes={sizes}
      loading="lazy"
      decoding="async"
      onError={() => setFailed((previous) => [...previous, src])}
      className="size-full object-cover"
      style={cropStyle(media.cropX, media.cropY, media.scale)}
    />
  );
}

/** Media tab: the hero image large, then all images with a 'Hero' marker, or 'No media uploaded'. */
function MediaPanel({ vehicle }: { vehicle: Vehicle }) {
  const media = vehicle.media;
  const hero = heroOf(media);
  const title = vehicleDisplayName(vehicle);
  if (!hero) {
    return (
      <div className="flex flex-col items-center rounded-xl border border-dashed border-white/15 px-6 py-12 text-center text-ash-300">
        <CarPlaceholderIcon className="size-12 text-gold-500/50" />
        <p className="mt-3 text-sm">No media uploaded</p>
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-4">
      <figure className="overflow-hidden rounded-xl border border-white/10 bg-night-950">
        <div className="aspect-[16/10] overflow-hidden">
          <FramedImage media={hero} alt={hero.altText?.trim() || `${title} – Hauptbild`} sizes="48rem" />
        </div>
      </figure>
      <ul aria-label="Alle Bilder" className="grid grid-cols-2 gap-3 sm:grid-cols-3">
        {media.map((item, index) => (
          <li
            key={item.id}
            className={`relative overflow-hidden rounded-lg border bg-night-950 ${item === hero ? 'border-gold-400/70' : 'border-white/10'}`}
          >
            <a
              href={item.url}
              target="_blank"
              rel="noreferrer"
              className="block aspect-[4/3] overflow-hidden focus-visible:outline-offset-[-3px]"
              aria-label={`Bild ${index + 1} von ${media.length} in neuem Tab öffnen`}
            >
              <FramedImage media={item} alt="" sizes="16rem" />
            </a>
            {item === hero ? (
              <span className="absolute top-2 left-2 rounded-full bg-gold-500 px-2 py-0.5 text-xs font-semibold text-night-950 shadow">
                Hero
              </span>
            ) : null}
            {item.approvalStatus === 'rejected' ? (
              <p className="border-t border-red-400/30 bg-red-950/60 px-2 py-1 text-xs text-red-200">
                {item.rejectionReason ?? 'Abgelehnt'}
              </p>
            ) : null}
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * The admin's view of one application: brand, model and
 * status in the header; tabs Details, Media (with count) and, for admins and reviewers, Admin
 * (status change, history, applicant's contact data). Focus is trapped; Escape closes.
 */
export function VehicleDetailDialog({
  vehicle,
  open,
  onOpenChange,
  finalFocusEl,
  initialTab = 'details',
}: {
  vehicle: Vehicle | undefined;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The tab shown first ('Meine Prüfungen' opens on the review). */
  initialTab?: 'details' | 'media' | 'admin';
  /** Where focus goes on close; null keeps the default (the element that opened the dialog). */
  finalFocusEl?: () => HTMLElement | null;
}) {
  const { data: user } = useCurrentUser();
  const staff = isStaffRole(user?.role);
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
            <Dialog.Content className="flex max-h-[100dvh] w-full max-w-3xl flex-col overflow-hidden border border-white/10 bg-night-900 shadow-2xl shadow-black/60 focus:outline-none sm:max-h-[90dvh] sm:min-h-[min(36rem,90dvh)] sm:rounded-2xl">
              <header className="flex items-start justify-between gap-4 border-b border-white/10 px-5 pt-5 pb-4 sm:px-6">
                <div className="min-w-0">
                  <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
                    <Dialog.Title className="font-display text-2xl leading-tight text-parchment sm:text-3xl">
                      {vehicle.brand} {vehicle.model}
                    </Dialog.Title>
                    <StatusBadge status={vehicle.status} />
                  </div>
                  <Dialog.Description className="mt-1.5 text-sm text-ash-300">
                    {[
                      text(vehicle.name) ? `„${text(vehicle.name)}“` : null,
                      String(vehicle.year),
                      `Besitzer: ${personLabel(vehicle.user)}`,
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

              <Tabs.Root
                defaultValue={staff ? initialTab : 'details'}
                lazyMount
                className="flex min-h-0 flex-1 flex-col"
              >
                <Tabs.List
                  aria-label="Ansicht"
                  className="relative flex shrink-0 gap-6 border-b border-white/10 px-5 sm:px-6"
                >
                  <Tabs.Trigger value="details" className={tabTriggerClass}>
                    Details
                  </Tabs.Trigger>
                  <Tabs.Trigger value="media" className={tabTriggerClass}>
                    Media <span className={countClass}>{vehicle.media.length}</span>
                  </Tabs.Trigger>
                  {staff ? (
                    <Tabs.Trigger value="admin" className={tabTriggerClass}>
                      Admin
                    </Tabs.Trigger>
                  ) : null}
                  <Tabs.Indicator className="bottom-0 h-0.5 w-(--width) rounded-full bg-gold-400 motion-reduce:[--transition-duration:0ms]" />
                </Tabs.List>
                <div className="min-h-0 flex-1 overflow-y-auto overscroll-contain">
                  <Tabs.Content value="details" className="p-5 focus-visible:outline-offset-[-4px] sm:p-6">
                    <DetailsPanel vehicle={vehicle} />
                  </Tabs.Content>
                  <Tabs.Content value="media" className="p-5 focus-visible:outline-offset-[-4px] sm:p-6">
                    <MediaPanel vehicle={vehicle} />
                  </Tabs.Content>
                  {staff ? (
                    <Tabs.Content value="admin" className="p-5 focus-visible:outline-offset-[-4px] sm:p-6">
                      <AdminPanel key={vehicle.id} vehicle={vehicle} />
                    </Tabs.Content>
                  ) : null}
                </div>
              </Tabs.Root>
            </Dialog.Content>
          ) : null}
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
