import { CROP_LIMITS } from '@schlosstreffen/shared';
import { useId, useState, type ReactNode } from 'react';
import { CarPlaceholderIcon } from '../../components/icons';
import { Button } from '../../components/ui/button';
import {
  clampCrop,
  cropStyle,
  DEFAULT_CROP,
  formatCropValue,
  withHero,
  type CropField,
  type CropValues,
} from './crop';

/** One image as the editor shows it; crop values as text ("50.00") like the API's media. */
export interface CropImage extends CropValues {
  id: string;
  /** Object path, thumbnail or local object URL; without it a placeholder is shown. */
  src: string | undefined;
  isHero: boolean;
  /** File name or other label, used for the image's accessible name. */
  name?: string;
}

/** `images` with the framing of `id` changed (clamped to its limits, as text). */
function updateCrop<T extends CropImage>(
  images: readonly T[],
  id: string,
  patch: Partial<Record<CropField, number | string>>,
): T[] {
  return images.map((image) => {
    if (image.id !== id) return image;
    const next = { ...image };
    for (const field of Object.keys(patch) as CropField[]) {
      next[field] = formatCropValue(clampCrop(field, patch[field]));
    }
    return next;
  });
}

/** `images` with `id` back at 50 / 50 / 100. */
function resetCrop<T extends CropImage>(images: readonly T[], id: string): T[] {
  return images.map((image) => (image.id === id ? { ...image, ...DEFAULT_CROP } : image));
}

interface ImageCropEditorProps<T extends CropImage> {
  images: readonly T[];
  /** The whole list after a change (hero choice or framing). */
  onChange: (images: T[]) => void;
  /** Shows a remove button per image. */
  onRemove?: (image: T) => void;
  /** Extra content per image under its controls, e.g. an upload state or a warning. */
  renderExtra?: (image: T) => ReactNode;
  /** Greys out every control (e.g. while saving). */
  disabled?: boolean;
}

/**
 * Per image: the main-image choice ('Hauptbild', one for the whole list), the crop position x and y
 * (0–100 %) and the zoom (100–200 %, step 1) with a live preview framed like the vehicle card, and a
 * reset to 50 / 50 / 100. Controlled: every change goes through `onChange`.
 */
export function ImageCropEditor<T extends CropImage>({
  images,
  onChange,
  onRemove,
  renderExtra,
  disabled = false,
}: ImageCropEditorProps<T>) {
  const group = useId();
  if (images.length === 0) return null;
  return (
    <ul className="grid gap-4 sm:grid-cols-2" aria-label="Bilder bearbeiten">
      {images.map((image, index) => (
        <li key={image.id}>
          <ImageCropCard
            image={image}
            index={index}
            radioGroup={group}
            disabled={disabled}
            onSelectHero={() => onChange(withHero(images, image.id))}
            onCrop={(patch) => onChange(updateCrop(images, image.id, patch))}
            onReset={() => onChange(resetCrop(images, image.id))}
            onRemove={onRemove ? () => onRemove(image) : undefined}
            extra={renderExtra?.(image)}
          />
        </li>
      ))}
    </ul>
  );
}

const SLIDERS: { field: CropField; label: string; unit: string }[] = [
  { field: 'cropX', label: 'Position horizontal', unit: '%' },
  { field: 'cropY', label: 'Position vertikal', unit: '%' },
  { field: 'scale', label: 'Zoom', unit: '%' },
];

const percentFormat = new Intl.NumberFormat('de-DE', { maximumFractionDigits: 2 });

function ImageCropCard<T extends CropImage>({
  image,
  index,
  radioGroup,
  disabled,
  onSelectHero,
  onCrop,
  onReset,
  onRemove,
  extra,
}: {
  image: T;
  index: number;
  radioGroup: string;
  disabled: boolean;
  onSelectHero: () => void;
  onCrop: (patch: Partial<Record<CropField, number>>) => void;
  onReset: () => void;
  onRemove?: () => void;
  extra: ReactNode;
}) {
  const id = useId();
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const label = image.name ? `Bild ${index + 1} (${image.name})` : `Bild ${index + 1}`;
  const isDefault =
    clampCrop('cropX', image.cropX) === 50 &&
    clampCrop('cropY', image.cropY) === 50 &&
    clampCrop('scale', image.scale) === 100;
  const showImage = Boolean(image.src) && failedSrc !== image.src;

  return (
    <figure
      aria-label={label}
      className={`flex h-full flex-col overflow-hidden rounded-xl border bg-night-900/80 transition-colors ${
        image.isHero ? 'border-gold-500/70 ring-1 ring-gold-500/30' : 'border-white/10'
      }`}
    >
      <div className="relative aspect-[4/3] overflow-hidden bg-night-950">
        {showImage ? (
          <img
            src={image.src}
            alt={`Vorschau: ${label}`}
            className="size-full object-cover transition-[transform,object-position] duration-150"
            style={cropStyle(image.cropX, image.cropY, image.scale)}
            onError={() => setFailedSrc(image.src ?? null)}
          />
        ) : (
          <div className="flex size-full items-center justify-center text-ash-400">
            <CarPlaceholderIcon className="size-14" />
          </div>
        )}
        {image.isHero ? (
          <span className="absolute top-2 left-2 rounded-full bg-gold-500 px-2.5 py-0.5 text-xs font-semibold text-night-950 shadow">
            Hauptbild
          </span>
        ) : null}
      </div>

      <figcaption className="flex flex-1 flex-col gap-3 p-4">
        <div className="flex items-center justify-between gap-3">
          <label className="flex cursor-pointer items-center gap-2 text-sm font-medium text-parchment has-disabled:cursor-not-allowed">
            <input
              type="radio"
              name={`hero-${radioGroup}`}
              checked={image.isHero}
              disabled={disabled}
              onChange={onSelectHero}
              aria-label={`Hauptbild: ${label}`}
              className="size-4 accent-gold-500"
            />
            Hauptbild
          </label>
          {image.name ? (
            <span className="min-w-0 truncate text-xs text-ash-400" title={image.name}>
              {image.name}
            </span>
          ) : null}
        </div>

        {SLIDERS.map(({ field, label: sliderLabel, unit }) => {
          const { min, max } = CROP_LIMITS[field];
          const value = clampCrop(field, image[field]);
          const inputId = `${id}-${field}`;
          return (
            <div key={field} className="flex flex-col gap-1">
              <div className="flex items-center justify-between text-xs text-ash-300">
                <label htmlFor={inputId}>{sliderLabel}</label>
                <output htmlFor={inputId} className="tabular-nums text-gold-200">
                  {percentFormat.format(value)} {unit}
                </output>
              </div>
              <input
                id={inputId}
                type="range"
                min={min}
                max={max}
                step={1}
                value={value}
                disabled={disabled}
                aria-label={`${sliderLabel}: ${label}`}
                aria-valuetext={`${percentFormat.format(value)} ${unit}`}
                onChange={(event) => onCrop({ [field]: Number(event.target.value) })}
                className="h-2 w-full cursor-pointer accent-gold-500 disabled:cursor-not-allowed"
              />
            </div>
          );
        })}

        <div className="mt-auto flex flex-wrap items-center gap-2 pt-1">
          <Button
            variant="ghost"
            className="px-3 py-1.5 text-xs"
            disabled={disabled || isDefault}
            onClick={onReset}
            aria-label={`Zuschnitt zurücksetzen: ${label}`}
          >
            Zurücksetzen
          </Button>
          {onRemove ? (
            <Button
              variant="ghost"
              className="px-3 py-1.5 text-xs text-red-300 hover:text-red-200"
              disabled={disabled}
              onClick={onRemove}
              aria-label={`Entfernen: ${label}`}
            >
              Entfernen
            </Button>
          ) : null}
        </div>
        {extra}
      </figcaption>
    </figure>
  );
}
