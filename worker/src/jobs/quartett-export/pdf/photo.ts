import { printPhotoKey, renditionKey, type CardPhoto } from '@schlosstreffen/api/core';
import { cropRegion, MAX_IMAGE_BYTES, MAX_IMAGE_PIXELS } from '@schlosstreffen/shared';
import { ObjectTooLargeError, type Storage } from '../../../adapters/storage.js';
import { PHOTO_DPI, PHOTO_FRAME_MM } from './layout.js';

/** Pixel size of the photo frame at print resolution (768 × 508). */
export const PHOTO_PIXELS = {
  width: Math.round((PHOTO_FRAME_MM.width / 25.4) * PHOTO_DPI),
  height: Math.round((PHOTO_FRAME_MM.height / 25.4) * PHOTO_DPI),
} as const;

const FRAME_ASPECT = PHOTO_FRAME_MM.width / PHOTO_FRAME_MM.height;

async function read(storage: Storage, key: string): Promise<Buffer | undefined> {
  try {
    return await storage.get(key, MAX_IMAGE_BYTES);
  } catch (error) {
    if (error instanceof ObjectTooLargeError) return undefined;
    throw error;
  }
}

/** sharp (its native library alone is about 20 MB) is loaded once a photo has to be prepared. */
const loadSharp = () => import('../../../adapters/sharp.js').then((module) => module.default);

/** Changes whenever what preparePhoto makes of an image would change: its crop, zoom or this code. */
const RENDERING = `v1 ${PHOTO_PIXELS.width}x${PHOTO_PIXELS.height} q80`;

/** Metadata name under which a stored print photo names what it was made from. */
export const PRINT_PHOTO_META = 'print-photo';

/** What a print photo was made from: the image, its crop and zoom (as stored, 2 decimals), the rendering. */
export const printPhotoFingerprint = (source: CardPhoto) =>
  `${source.mediaId} ${source.cropX.toFixed(2)} ${source.cropY.toFixed(2)} ${source.scale.toFixed(2)} ${RENDERING}`;

/** The stored print photo when it was made from exactly this image and crop, else undefined. */
export async function readPrintPhoto(storage: Storage, source: CardPhoto): Promise<Buffer | undefined> {
  const stored = await storage
    .getWithMetadata(printPhotoKey(source.mediaId), MAX_IMAGE_BYTES)
    .catch((error: unknown) => {
      if (error instanceof ObjectTooLargeError) return undefined;
      throw error;
    });
  if (!stored?.data.length || stored.metadata[PRINT_PHOTO_META] !== printPhotoFingerprint(source))
    return undefined;
  return stored.data;
}

/**
 * The photo as the card shows it: the 1280 px rendition (else the clean full-size copy), oriented, cut to the
 * frame with the owner's crop and zoom, at most 300 dpi, as JPEG (pdfkit reads no WebP). Undefined
 * when there is no usable image (the card gets a placeholder); S3 errors are thrown.
 */
export async function preparePhoto(storage: Storage, source: CardPhoto): Promise<Buffer | undefined> {
  const data =
    (await read(storage, renditionKey(source.mediaId, 1280))) ??
    (source.fullKey ? await read(storage, source.fullKey) : undefined);
  if (!data?.length) return undefined;
  const options = { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error' } as const;
  const sharp = await loadSharp();
  try {
    const { autoOrient } = await sharp(data, options).metadata();
    const region = cropRegion(autoOrient.width, autoOrient.height, FRAME_ASPECT, source);
    // Scale first, then cut: sharp then decodes JPEG and WebP at reduced size (shrink-on-load),
    // which saves most of the time and memory. Never enlarge: pdfkit scales a small photo up.
    const factor = Math.min(1, PHOTO_PIXELS.width / region.width);
    const width = Math.max(1, Math.round(autoOrient.width * factor));
    const height = Math.max(1, Math.round(autoOrient.height * factor));
    const left = Math.min(width - 1, Math.round(region.left * factor));
    const top = Math.min(height - 1, Math.round(region.top * factor));
    return await sharp(data, options)
      .rotate()
      .resize({ width, height, fit: 'fill' })
      .extract({
        left,
        top,
        width: Math.max(1, Math.min(width - left, Math.round(region.width * factor))),
        height: Math.max(1, Math.min(height - top, Math.round(region.height * factor))),
      })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 80 })
      .toBuffer();
  } catch {
    // Undecodable: the thumbnail job refuses such files; here the card simply shows no photo.
    return undefined;
  }
}
