import type { Media } from '@schlosstreffen/shared/api';
import { DEFAULT_CROP, ensureHero, normalizeCrop, withHero, type CropValues } from '../media/crop';
import type { CropImage } from '../media/image-crop-editor';
import type { UploadedImage } from '../media/use-image-uploader';

/**
 * Images on /edit/{id}: the vehicle's media minus queued removals, plus new uploads, with the
 * user's framing and main-image choice laid over them. Nothing reaches the server before save.
 */

export interface EditImage extends CropImage {
  kind: 'existing' | 'new';
  /** New uploads: /objects/{key} for POST …/media. */
  objectPath?: string;
  /** Existing images the worker refused. */
  rejectionReason?: string | null;
}

export interface EditImageChanges {
  /** Media ids whose deletion is queued until save. */
  removed: readonly string[];
  /** Framing by image id (media id or upload id) where the user changed it. */
  framing: Readonly<Record<string, CropValues>>;
  /** The chosen main image; null keeps the saved one. */
  heroId: string | null;
}

export const NO_IMAGE_CHANGES: EditImageChanges = { removed: [], framing: {}, heroId: null };

/** The best stored picture of a media item: its large WebP rendition, else the original. */
export function mediaSrc(media: Pick<Media, 'url' | 'thumbnails'>): string {
  return media.thumbnails?.['1280'] ?? media.thumbnails?.['480'] ?? media.url;
}

export function imagesOf(media: readonly Media[]): Media[] {
  return media.filter((item) => item.type === 'image');
}

/**
 * The list the editor shows: kept media first (in their order), then new uploads. Without a chosen
 * main image the saved one stays; if there is none (or it was removed) the first image becomes main.
 */
export function deriveEditImages(
  media: readonly Media[],
  uploaded: readonly UploadedImage[],
  changes: EditImageChanges,
): EditImage[] {
  const existing: EditImage[] = imagesOf(media)
    .filter((item) => !changes.removed.includes(item.id))
    .map((item) => ({
      id: item.id,
      kind: 'existing',
      src: mediaSrc(item),
      isHero: item.isHero,
      rejectionReason: item.rejectionReason,
      ...(changes.framing[item.id] ?? normalizeCrop(item)),
    }));
  const added: EditImage[] = uploaded.map((file) => ({
    id: file.id,
    kind: 'new',
    src: file.previewUrl,
    name: file.name,
    objectPath: file.objectPath,
    isHero: false,
    ...(changes.framing[file.id] ?? DEFAULT_CROP),
  }));
  const all = [...existing, ...added];
  if (changes.heroId && all.some((image) => image.id === changes.heroId))
    return withHero(all, changes.heroId);
  return ensureHero(all);
}

/** The editor's list back as changes (framing of every image, the chosen main image). */
export function changesFromImages(
  images: readonly EditImage[],
  removed: readonly string[],
): EditImageChanges {
  return {
    removed,
    framing: Object.fromEntries(
      images.map((image) => [image.id, { cropX: image.cropX, cropY: image.cropY, scale: image.scale }]),
    ),
    heroId: images.find((image) => image.isHero)?.id ?? null,
  };
}

function sameCrop(a: Partial<CropValues>, b: Partial<CropValues>): boolean {
  const left = normalizeCrop(a);
  const right = normalizeCrop(b);
  return left.cropX === right.cropX && left.cropY === right.cropY && left.scale === right.scale;
}

/** Whether the framing of an image differs from what is saved (new uploads: from the default). */
export function cropChanged(image: EditImage, media: readonly Media[]): boolean {
  const saved = image.kind === 'existing' ? media.find((item) => item.id === image.id) : undefined;
  return !sameCrop(image, saved ?? DEFAULT_CROP);
}

interface MediaUpdate extends CropValues {
  id: string;
  isHero: boolean;
}

/**
 * Body items of PATCH /api/vehicles/{id}/media after removals and new images went out: existing
 * images whose framing or main flag changed, new images framed away from the default (by the media
 * id their POST returned), and the main image again after removals (the server picks a new main
 * image when the old one is deleted).
 */
export function mediaUpdates(
  images: readonly EditImage[],
  media: readonly Media[],
  attached: ReadonlyMap<string, string>,
  removedAny: boolean,
): MediaUpdate[] {
  const updates: MediaUpdate[] = [];
  for (const image of images) {
    const crop = normalizeCrop(image);
    if (image.kind === 'existing') {
      const saved = media.find((item) => item.id === image.id);
      if (!saved) continue;
      const changed =
        !sameCrop(image, saved) || image.isHero !== saved.isHero || (removedAny && image.isHero);
      if (changed) updates.push({ id: image.id, isHero: image.isHero, ...crop });
    } else {
      const mediaId = attached.get(image.id);
      if (mediaId && !sameCrop(image, DEFAULT_CROP))
        updates.push({ id: mediaId, isHero: image.isHero, ...crop });
    }
  }
  return updates;
}
