import type { EntityManager } from '@mikro-orm/postgresql';
import { recordShareImage, shareImageTask, type ShareImageSource } from '@schlosstreffen/api/core';
import { cropRegion, MAX_IMAGE_BYTES, MAX_IMAGE_PIXELS } from '@schlosstreffen/shared';
import { ObjectTooLargeError, type Storage } from '../../adapters/storage.js';
import type { JobHandler } from '../dispatch.js';

/** The size link previews are shown at (Open Graph's large image, Twitter's summary_large_image). */
export const SHARE_IMAGE_SIZE = { width: 1200, height: 630 } as const;

/**
 * The version of the drawing below, part of every preview's key: any change to how a preview looks
 * changes it, so each stored preview's key is out of date. They are drawn anew by
 * `npm run cli -- share-images:redraw` after such a release, rather than by the car's page noticing
 * an old one at a visit: the drawing changes only with a release, and the page, kept for visitors
 * and read on every uncached request, then neither computes a key nor writes a job.
 */
export const SHARE_IMAGE_DRAWING = 'v1 1200x630 jpeg q82';

export interface RenderShareImageDeps {
  em: EntityManager;
  storage: Storage;
}

export type ShareImageResult =
  | { status: 'done'; key: string; bytes: number; photo: boolean }
  /** The stored preview shows the car as it is. */
  | { status: 'current'; key: string }
  /** The car is not on the public list (any more): it gets none. */
  | { status: 'unlisted' }
  /** The car changed while the preview was drawn: the job that change queued draws it. */
  | { status: 'stale' };

/** sharp (its native library alone is about 20 MB) is loaded once a preview has to be drawn. */
const loadSharp = () => import('../../adapters/sharp.js').then((module) => module.default);

async function read(storage: Storage, key: string | null): Promise<Buffer | undefined> {
  if (!key) return undefined;
  try {
    return await storage.get(key, MAX_IMAGE_BYTES);
  } catch (error) {
    if (error instanceof ObjectTooLargeError) return undefined;
    throw error;
  }
}

const escapeXml = (text: string) => text.replace(/[<>&"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** A title that fits the preview's width at its size: long ones get smaller, then cut with '…'. */
function fitTitle(title: string): { text: string; size: number } {
  const size = title.length > 26 ? (title.length > 36 ? 52 : 60) : 72;
  const max = Math.floor(1080 / (size * 0.58));
  return { text: title.length > max ? `${title.slice(0, max - 1).trimEnd()}…` : title, size };
}

const FONT = "'DejaVu Sans', 'Liberation Sans', Arial, sans-serif";

/** The overlay: a dark band from below, the car's title, its meeting and its start number. */
function overlay(source: ShareImageSource): Buffer {
  const { width, height } = SHARE_IMAGE_SIZE;
  const title = fitTitle(source.title);
  const number = `Nr. ${source.startNumber}`;
  const badgeWidth = 56 + number.length * 30;
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
  <defs>
    <linearGradient id="shade" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0.35" stop-color="#0b0d12" stop-opacity="0"/>
      <stop offset="1" stop-color="#0b0d12" stop-opacity="0.92"/>
    </linearGradient>
  </defs>
  <rect width="${width}" height="${height}" fill="url(#shade)"/>
  <rect x="${width - badgeWidth - 48}" y="44" width="${badgeWidth}" height="76" rx="16" fill="#0b0d12" fill-opacity="0.82" stroke="#d4af37" stroke-width="3"/>
  <text x="${width - 48 - badgeWidth / 2}" y="98" text-anchor="middle" font-family="${FONT}" font-size="44" font-weight="700" fill="#f3e3a8">${escapeXml(number)}</text>
  <text x="60" y="${height - 118}" font-family="${FONT}" font-size="${title.size}" font-weight="700" fill="#f6f1e7">${escapeXml(title.text)}</text>
  <text x="60" y="${height - 58}" font-family="${FONT}" font-size="34" fill="#d4af37">${escapeXml(source.edition.name)}</text>
</svg>`);
}

/**
 * Draws the preview: the hero cut to 1200×630 with the owner's framing (from its clean full-size copy,
 * else its 1280 px rendition; never the upload), or a dark ground when the car shows no photo, with
 * the overlay; JPEG.
 */
export async function drawShareImage(
  storage: Storage,
  source: ShareImageSource,
): Promise<{ data: Buffer; photo: boolean }> {
  const sharp = await loadSharp();
  const { width, height } = SHARE_IMAGE_SIZE;
  const options = { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error' } as const;
  let base: Buffer | undefined;
  const photo = source.photo;
  if (photo) {
    const data = (await read(storage, photo.fullKey)) ?? (await read(storage, photo.renditionKey));
    if (data?.length) {
      try {
        const { autoOrient } = await sharp(data, options).metadata();
        const region = cropRegion(autoOrient.width, autoOrient.height, width / height, photo);
        base = await sharp(data, options)
          .rotate()
          .extract(region)
          .resize({ width, height, fit: 'cover' })
          .flatten({ background: '#0b0d12' })
          .toBuffer();
      } catch {
        // Undecodable: the preview shows the car's words on the dark ground.
        base = undefined;
      }
    }
  }
  const ground = base
    ? sharp(base, options)
    : sharp({ create: { width, height, channels: 3, background: '#141821' } });
  const image = await ground
    .composite([{ input: overlay(source), top: 0, left: 0 }])
    .jpeg({ quality: 82, mozjpeg: true })
    .toBuffer();
  return { data: image, photo: Boolean(base) };
}

/**
 * Writes the link preview of a car on the public list under a key naming what it shows and records
 * it on the car's list row (its page then names it); the preview it replaces is deleted. Idempotent:
 * a current preview is left as it is; a car no longer listed gets none.
 */
export function createRenderShareImage(deps: RenderShareImageDeps): JobHandler<'share-image.render'> {
  return async ({ vehicleId }): Promise<ShareImageResult> => {
    const task = await shareImageTask(deps.em.fork(), vehicleId, SHARE_IMAGE_DRAWING);
    if (!task) return { status: 'unlisted' };
    if (task.recorded === task.key) return { status: 'current', key: task.key };
    const { data, photo } = await drawShareImage(deps.storage, task.source);
    await deps.storage.put(task.key, data, {
      contentType: 'image/jpeg',
      cacheControl: 'public, max-age=300',
    });
    const { recorded, previous } = await recordShareImage(deps.em, vehicleId, task.key, SHARE_IMAGE_DRAWING);
    if (!recorded) {
      // Changed or gone meanwhile: what this job wrote names nothing.
      await deps.storage.deleteMany([task.key]);
      return { status: 'stale' };
    }
    if (previous) await deps.storage.deleteMany([previous]);
    return { status: 'done', key: task.key, bytes: data.length, photo };
  };
}
