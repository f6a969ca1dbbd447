import { useState, type CSSProperties } from 'react';
import { CarPlaceholderIcon } from '../../components/icons';
import { quartettCardValues, type CardValueSource } from '@schlosstreffen/shared';

/** The picture on a card: an object URL plus the owner's crop position and zoom. */
interface QuartettCardImage {
  url: string;
  /** Crop focus in percent (CSS object-position), 0–100; numbers or the API's decimal text. Default 50. */
  cropX?: number | string | null;
  cropY?: number | string | null;
  /** Zoom in percent, 100–200; default 100. */
  scale?: number | string | null;
  alt?: string;
}

interface QuartettCardProps {
  /** Name on the card: the vehicle's name, else brand plus model. */
  title: string;
  /** Second line, e.g. "BMW M3 (E30) · 1988 · Henna-Rot". */
  subline?: string;
  /** Without an image (or when it fails to load) a placeholder icon is shown. */
  image?: QuartettCardImage | null;
  /** Badge over the picture, e.g. { label: 'Eingeladen', className: STATUS_BADGE_CLASSES.invited }. */
  badge?: { label: string; className: string } | null;
  /** The six values of the card; missing ones show 'N/A'. */
  values: CardValueSource;
  /** Drive type as shown on the card, e.g. driveTypeLabel(vehicle.driveType) → 'Heckantrieb'. */
  driveTypeLabel?: string | null;
  /** Card code in the corner, e.g. 'A1'. */
  code?: string;
  className?: string;
}

function toNumber(value: number | string | null | undefined): number | null {
  if (value === null || value === undefined || value === '') return null;
  const number = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(number) ? number : null;
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/** Inline style that applies crop position (object-position) and zoom (transform scale) to an <img>. */
function cropStyle(image: Pick<QuartettCardImage, 'cropX' | 'cropY' | 'scale'>): CSSProperties {
  const x = clamp(toNumber(image.cropX) ?? 50, 0, 100);
  const y = clamp(toNumber(image.cropY) ?? 50, 0, 100);
  const scale = clamp(toNumber(image.scale) ?? 100, 100, 200);
  return {
    objectPosition: `${x}% ${y}%`,
    transform: `scale(${scale / 100})`,
    transformOrigin: `${x}% ${y}%`,
  };
}

/**
 * A quartett card as it will be printed: title, subline, picture with crop and zoom,
 * optional badge, and the six values Leistung (PS), Drehmoment (Nm), 0-100 km/h (s), V-Max (km/h),
 * Zylinder and Gewicht (kg), 'N/A' where a value is missing. Purely presentational: used for the
 * landing page sample and the live preview while editing a vehicle.
 */
export function QuartettCard({
  title,
  subline,
  image,
  badge,
  values,
  driveTypeLabel,
  code,
  className = '',
}: QuartettCardProps) {
  const [failedUrl, setFailedUrl] = useState<string | null>(null);
  const showImage = Boolean(image?.url) && failedUrl !== image?.url;

  const rows = quartettCardValues(values);

  return (
    <article
      aria-label={`Quartett-Karte: ${title}`}
      className={`relative flex w-full max-w-xs flex-col overflow-hidden rounded-2xl border border-gold-500/50 bg-linear-to-b from-night-800 to-night-900 p-3 shadow-2xl shadow-black/60 ring-1 ring-gold-500/10 ring-inset ${className}`}
    >
      <header className="flex items-start justify-between gap-3 px-1 pt-1 pb-2.5">
        <div className="min-w-0">
          <h3 className="truncate font-display text-xl leading-tight text-gold-200">{title}</h3>
          {subline ? <p className="mt-0.5 truncate text-xs text-ash-300">{subline}</p> : null}
        </div>
        {code ? (
          <span className="shrink-0 rounded-md border border-gold-500/50 px-1.5 py-0.5 font-display text-sm text-gold-300">
            {code}
          </span>
        ) : null}
      </header>

      <div className="relative aspect-[4/3] overflow-hidden rounded-lg border border-white/10 bg-night-950">
        {showImage && image ? (
          <img
            src={image.url}
            alt={image.alt ?? title}
            loading="lazy"
            decoding="async"
            onError={() => setFailedUrl(image.url)}
            className="size-full object-cover"
            style={cropStyle(image)}
          />
        ) : (
          <div className="flex size-full items-center justify-center text-gold-500/40">
            <CarPlaceholderIcon className="size-16" />
          </div>
        )}
        {badge ? (
          <span
            className={`absolute top-2 right-2 rounded-full border px-2.5 py-0.5 text-xs font-semibold shadow ${badge.className}`}
          >
            {badge.label}
          </span>
        ) : null}
      </div>

      <dl className="mt-3 grid grid-cols-1 divide-y divide-white/5 rounded-lg border border-white/5 bg-night-950/60 text-sm">
        {rows.map((row) => (
          <div key={row.label} className="flex items-baseline justify-between gap-3 px-3 py-1.5">
            <dt className="text-ash-400">{row.label}</dt>
            <dd className="font-semibold text-parchment tabular-nums">{row.value}</dd>
          </div>
        ))}
      </dl>

      {driveTypeLabel ? (
        <p className="mt-2.5 px-1 text-center text-xs tracking-[0.2em] text-gold-400 uppercase">
          {driveTypeLabel}
        </p>
      ) : null}
    </article>
  );
}
