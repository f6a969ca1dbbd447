import { SKELETON } from '@schlosstreffen/shared';
import { useState, type CSSProperties, type ReactNode } from 'react';
import { CarPlaceholderIcon } from '../../components/icons';
import type { Vehicle, VehicleInvitation } from '@schlosstreffen/shared/api';
import { formatDate, formatDateTime } from '../../lib/date-format';
import { cropStyle, heroOf } from '../media/crop';
import { StatusBadge } from './status-badge';
import {
  personLabel,
  quartettCardValues,
  RELEASE_NOTICES,
  vehicleDisplayName,
  vehicleSubline,
  type VehicleStatus,
} from '@schlosstreffen/shared';

interface VehicleCardProps {
  vehicle: Vehicle;
  /** Admin lists: a line with the owner (vehicle.user): full name, else email, else 'Unbekannt'. */
  showOwner?: boolean;
  /** Buttons under the card's content (edit, submit, …); they stay clickable above `onOpen`. */
  actions?: ReactNode;
  /** Makes the whole card a button (e.g. the admin detail dialog); the title carries the label. */
  onOpen?: (vehicle: Vehicle) => void;
  /** Heading level of the title: h2 under a page heading, h3 under a section. */
  headingLevel?: 'h2' | 'h3';
  className?: string;
  style?: CSSProperties;
  /** The edition the application is for, where the list holds more than one. */
  editionLabel?: string;
  /** What an application of an edition that is over came to; its invitation asks for nothing more. */
  outcome?: ReactNode;
}

/** The hero picture: thumbnail first, then the original, then the placeholder icon. */
function HeroImage({ vehicle, title }: { vehicle: Vehicle; title: string }) {
  const hero = heroOf(vehicle.media.filter((item) => item.type === 'image'));
  const sources = hero
    ? [...new Set([hero.thumbnailUrl, hero.url].filter((src): src is string => !!src))]
    : [];
  const [failed, setFailed] = useState<readonly string[]>([]);
  const src = sources.find((candidate) => !failed.includes(candidate));

  if (!hero || !src) {
    return (
      <div
        data-testid="vehicle-card-placeholder"
        className="flex size-full items-center justify-center bg-linear-to-br from-night-800 to-night-950 text-gold-500/50"
      >
        <CarPlaceholderIcon className="size-16" />
      </div>
    );
  }
  return (
    <img
      key={src}
      src={src}
      alt={hero.altText?.trim() || title}
      loading="lazy"
      decoding="async"
      onError={() => setFailed((previous) => [...previous, src])}
      className="size-full object-cover transition-[scale] duration-500 group-hover:scale-[1.03] motion-reduce:transition-none"
      style={cropStyle(hero.cropX, hero.cropY, hero.scale)}
    />
  );
}

/**
 * A vehicle in the owner's and the admin's lists: hero image with
 * its crop, status badge, title and subline, optional owner line, six value tiles, tuning
 * categories, a two-line short description and an optional actions slot.
 */
/** Start number and zone of a held place, the confirm-by date while unconfirmed, or why the place went. */
function InvitationLine({
  invitation,
  status,
  past,
}: {
  invitation: VehicleInvitation;
  status: VehicleStatus;
  /** Of an edition that is over: no confirm-by date to keep. */
  past: boolean;
}) {
  if (invitation.releasedAt && invitation.releaseReason) {
    const notice =
      invitation.releaseReason === 'lapsed'
        ? RELEASE_NOTICES.lapsed(formatDateTime(invitation.confirmBy))
        : RELEASE_NOTICES[invitation.releaseReason](formatDate(invitation.releasedAt));
    return <p className="mt-2 text-xs text-ash-300">{notice}</p>;
  }
  return (
    <>
      <p className="mt-2 inline-flex flex-wrap items-center gap-x-2 text-xs font-medium tracking-wide text-gold-300">
        <span>Startnummer {invitation.startNumber}</span>
        <span aria-hidden="true">·</span>
        <span>Parkzone {invitation.parkingZone}</span>
      </p>
      {status === 'invited' && invitation.confirmBy && !past ? (
        <p className="mt-1 text-xs font-medium text-parchment">
          Bitte bestätigen bis {formatDateTime(invitation.confirmBy)}
        </p>
      ) : null}
    </>
  );
}

export function VehicleCard({
  vehicle,
  showOwner = false,
  actions,
  onOpen,
  headingLevel: Heading = 'h2',
  className = '',
  style,
  editionLabel,
  outcome,
}: VehicleCardProps) {
  const title = vehicleDisplayName(vehicle);
  const subline = vehicleSubline(vehicle);
  const invitation = vehicle.invitation;
  // The card's tiles are the quartett card's values.
  const tiles = quartettCardValues(vehicle);
  const categories = tuningCategoriesOf(vehicle);
  const description = vehicle.descriptionShort?.trim();

  return (
    <article
      aria-label={title}
      style={style}
      className={`group relative flex h-full flex-col overflow-hidden rounded-2xl border border-white/10 bg-night-900/90 shadow-xl shadow-black/40 transition-colors hover:border-gold-500/40 ${className}`}
    >
      <div className="relative aspect-[16/10] overflow-hidden border-b border-white/5 bg-night-950">
        <HeroImage vehicle={vehicle} title={title} />
        <StatusBadge status={vehicle.status} className="absolute top-3 right-3 shadow-lg shadow-black/30" />
      </div>

      <div className="flex flex-1 flex-col gap-4 p-5">
        <div className="min-w-0">
          <Heading className="font-display text-xl leading-snug text-parchment">
            {onOpen ? (
              <button
                type="button"
                onClick={() => onOpen(vehicle)}
                className="text-left transition-colors after:absolute after:inset-0 after:rounded-2xl after:content-[''] hover:text-gold-200 focus-visible:outline-none focus-visible:after:outline-2 focus-visible:after:outline-gold-400"
              >
                {title}
              </button>
            ) : (
              title
            )}
          </Heading>
          {subline ? <p className="mt-1 text-sm text-ash-300">{subline}</p> : null}
          {editionLabel ? <p className="mt-1 text-xs font-semibold text-gold-400">{editionLabel}</p> : null}
          {showOwner ? (
            <p className="mt-1 text-sm text-ash-400">
              <span className="text-ash-300">Besitzer:</span> {personLabel(vehicle.user)}
            </p>
          ) : null}
          {outcome}
          {invitation ? (
            <InvitationLine invitation={invitation} status={vehicle.status} past={outcome !== undefined} />
          ) : null}
        </div>

        <dl className="grid grid-cols-3 gap-2">
          {tiles.map((tile) => (
            <div
              key={tile.label}
              className="flex flex-col rounded-lg border border-white/5 bg-night-950/70 px-2.5 py-2"
            >
              <dt className="text-[11px] leading-tight text-ash-400">{tile.label}</dt>
              <dd className="mt-1 text-sm font-semibold text-parchment tabular-nums">{tile.value}</dd>
            </div>
          ))}
        </dl>

        {categories.length > 0 ? <TuningCategoryList categories={categories} /> : null}

        {description ? <p className="line-clamp-2 text-sm text-ash-300">{description}</p> : null}

        {actions ? <div className="relative z-10 mt-auto flex flex-wrap gap-2 pt-1">{actions}</div> : null}
      </div>
    </article>
  );
}

/** The vehicle's tuning categories without blank entries. */
export const tuningCategoriesOf = (vehicle: Pick<Vehicle, 'tuningCategories'>): string[] =>
  vehicle.tuningCategories.filter((category) => category.trim() !== '');

/** The tuning categories as gold chips. */
export function TuningCategoryList({
  categories,
  className = '',
}: {
  categories: string[];
  className?: string;
}) {
  return (
    <ul aria-label="Tuning-Kategorien" className={`flex flex-wrap gap-1.5 ${className}`}>
      {categories.map((category, index) => (
        <li
          key={`${index}-${category}`}
          className="rounded-full border border-gold-500/30 bg-gold-500/10 px-2.5 py-0.5 text-xs text-gold-200"
        >
          {category}
        </li>
      ))}
    </ul>
  );
}

/** The grid of vehicle cards in the owner's and the admin's lists. */
export const vehicleGridClass = 'grid gap-6 md:grid-cols-2 xl:grid-cols-3';

/** A list item's entrance; the caller staggers it with `entranceDelay`. */
export const cardEntranceClass =
  'transition-[opacity,translate] duration-500 ease-out starting:translate-y-4 starting:opacity-0 motion-reduce:transition-none';

const pulse = 'animate-pulse motion-reduce:animate-none';

function VehicleCardSkeleton({ showOwner, actions }: { showOwner: boolean; actions: number }) {
  return (
    <div
      data-testid="vehicle-card-skeleton"
      aria-hidden="true"
      className="flex flex-col overflow-hidden rounded-2xl border border-white/10 bg-night-900/90"
    >
      <div className={`aspect-[16/10] bg-night-800 ${pulse}`} />
      <div className="flex flex-col gap-4 p-5">
        <div className="space-y-2">
          <div className={`h-6 w-2/3 rounded bg-night-700 ${pulse}`} />
          <div className={`h-4 w-1/2 rounded bg-night-800 ${pulse}`} />
          {showOwner ? <div className={`h-4 w-2/5 rounded bg-night-800 ${pulse}`} /> : null}
        </div>
        <div className="grid grid-cols-3 gap-2">
          {Array.from({ length: 6 }, (_, index) => (
            <div key={index} className={`h-13 rounded-lg bg-night-800 ${pulse}`} />
          ))}
        </div>
        <div className="flex gap-2">
          {Array.from({ length: actions }, (_, index) => (
            <div key={index} className={`h-10 w-28 rounded-full bg-night-800 ${pulse}`} />
          ))}
        </div>
      </div>
    </div>
  );
}

/** Placeholder cards while a list loads; `showOwner` and `actions` mirror the cards to come. */
export function VehicleCardSkeletons({
  showOwner = false,
  actions,
}: {
  showOwner?: boolean;
  actions: number;
}) {
  return (
    <div className={vehicleGridClass}>
      {Array.from({ length: SKELETON.vehicleCards }, (_, index) => (
        <VehicleCardSkeleton key={index} showOwner={showOwner} actions={actions} />
      ))}
    </div>
  );
}
