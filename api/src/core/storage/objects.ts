import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { isStaffRole, THUMBNAIL_WIDTHS, type ThumbnailWidth } from '@schlosstreffen/shared';
import { consentWithdrawn } from '../model/consent-state.js';
import { DataExport } from '../model/data-export.entity.js';
import type { User } from '../model/user.entity.js';
import { Media } from '../model/media.entity.js';
import { PublicVehicle } from '../model/public-vehicle.entity.js';
import { SignExport } from '../model/sign-export.entity.js';

/**
 * The storage layout: the key of every kind of object in the bucket, and who may read it.
 *
 * | kind           | key                                        | written by         | readable by |
 * |----------------|--------------------------------------------|--------------------|-------------|
 * | upload         | uploads/{userId}/{uuid}.{ext}              | the browser (signed PUT) | nobody: never served; the worker cleans it, then deletes it |
 * | full           | media/{mediaId}/full.{ext}                 | the worker         | its vehicle's readers |
 * | rendition      | thumbs/{mediaId}/{width}.webp              | the worker         | its vehicle's readers |
 * | print-photo    | print/{mediaId}.jpg                        | the worker         | nobody: never served; placed into quartett PDFs |
 * | export         | exports/quartett/v{version}-{setId}.pdf    | the worker         | admins |
 * | award          | exports/award/{editionId}/{vehicleId}.pdf  | the worker         | admins: the visitors' award certificates |
 * | jury           | exports/jury/{editionId}/v{version}.pdf    | the worker         | admins: the jury's certificates, one print file per edition and version of its results |
 * | account-export | exports/accounts/{exportId}.zip            | the worker         | the person it belongs to, until it expires |
 * | share          | share/{vehicleId}/{fingerprint}.jpg        | the worker         | anyone while its car is on the public list |
 * | sign           | exports/signs/{exportId}.pdf               | the worker         | an edition's set: admins; a car's sign: its owner and staff |
 * | web-asset      | web-assets/{file}                          | every api at its start | anyone: at /assets/{file}, where the api's own build lacks it |
 *
 * A vehicle's readers: anyone while it is confirmed (and the image not refused), else its owner,
 * reviewers and admins. Only clean renditions (orientation applied, every metadata block removed)
 * are ever served, and no key that is served carries a user id. Objects are addressed as
 * `/objects/{key}`; every extension is chosen by the server. Web assets are the hashed files of
 * every release's web client (web/dist/assets), kept so a page of one release loads its chunks from
 * an api of another; they are not addressed under /objects/, no row names them, and neither
 * retention nor a backup touches them.
 */

export const OBJECTS_PREFIX = '/objects/';

export type StoredObject =
  | { kind: 'award' }
  | { kind: 'jury' }
  | { kind: 'upload'; userId: string }
  | { kind: 'full'; mediaId: string }
  | { kind: 'rendition'; mediaId: string; width: number }
  | { kind: 'export' }
  | { kind: 'account-export'; exportId: string }
  | { kind: 'share'; vehicleId: string }
  | { kind: 'sign'; exportId: string };

/** Every upload of a user lies under this prefix. */
export const uploadPrefix = (userId: string) => `uploads/${userId}/`;

/** The file extension of each accepted upload type. */
const UPLOAD_EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/avif': 'avif',
  'image/gif': 'gif',
};

/** A fresh, unguessable key for an upload; its extension follows the signed content type. */
export function newUploadKey(userId: string, contentType: string): string {
  return `${uploadPrefix(userId)}${randomUUID()}.${UPLOAD_EXTENSIONS[contentType] ?? 'bin'}`;
}

/** Formats of the clean full-size rendition: the upload's own, but GIF becomes PNG (one frame). */
export const FULL_FORMATS = ['jpg', 'png', 'webp', 'avif'] as const;
export type FullFormat = (typeof FULL_FORMATS)[number];

const FULL_FORMAT_OF: Record<string, FullFormat> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/avif': 'avif',
  'image/gif': 'png',
};

/** The content type of a clean rendition's format (and of an upload with that extension). */
export const contentTypeOf = (format: string): string =>
  Object.entries(FULL_FORMAT_OF).find(([type, of]) => of === format && type !== 'image/gif')?.[0] ??
  'image/jpeg';

/** The clean rendition's format for an upload's content type (JPEG for anything unknown). */
export const fullFormatOf = (contentType: string): FullFormat => FULL_FORMAT_OF[contentType] ?? 'jpg';

/** The clean full-size rendition of an image. */
export const fullKey = (mediaId: string, format: FullFormat) => `media/${mediaId}/full.${format}`;

/** A WebP rendition of an image at one of THUMBNAIL_WIDTHS. */
export const renditionKey = (mediaId: string, width: ThumbnailWidth) => `thumbs/${mediaId}/${width}.webp`;

/**
 * The quartett card photo of an image, cut to the owner's crop and zoom at print size (JPEG). It
 * carries the crop it was made with in its metadata; parseKey does not know it, so it is never served.
 */
export const printPhotoKey = (mediaId: string) => `print/${mediaId}.jpg`;

/** The print PDF of a quartett set version. */
export const exportKey = (version: number, setId: string) => `exports/quartett/v${version}-${setId}.pdf`;

/** A windshield sign PDF (an edition's set or one car's); rendered anew under the same key. */
export const signExportKey = (exportId: string) => `exports/signs/${exportId}.pdf`;

/**
 * A car's link preview (1200×630 JPEG) under what it shows (`fingerprint`), so a changed one gets a
 * new address and no preview cache keeps the old; every one of a car lies under `sharePrefix`.
 */
export const shareImageKey = (vehicleId: string, fingerprint: string) =>
  `share/${vehicleId}/${fingerprint}.jpg`;
export const sharePrefix = (vehicleId: string) => `share/${vehicleId}/`;

/** The visitors' award certificate ('Urkunde') of a car among an edition's first three. */
export const awardCertificateKey = (editionId: string, vehicleId: string) =>
  `exports/award/${editionId}/${vehicleId}.pdf`;

/**
 * The jury's certificates of an edition: one print file for a version of its results (a
 * publication or correction raises the version, so an outdated file never takes a newer one's key).
 */
export const juryCertificatesKey = (editionId: string, version: number) =>
  `exports/jury/${editionId}/v${version}.pdf`;

/** A person's data export. */
export const accountExportKey = (exportId: string) => `exports/accounts/${exportId}.zip`;

/** Where the hashed files of every release's web client lie, as under /assets/. */
export const WEB_ASSETS_PREFIX = 'web-assets/';
export const webAssetKey = (file: string) => `${WEB_ASSETS_PREFIX}${file}`;

export const objectPathOf = (key: string) => `${OBJECTS_PREFIX}${key}`;

/** The bucket key of an `/objects/{key}` path, or undefined for anything else. */
export function keyOf(objectPath: string): string | undefined {
  if (!objectPath.startsWith(OBJECTS_PREFIX)) return undefined;
  const key = objectPath.slice(OBJECTS_PREFIX.length);
  if (!key || key.split('/').some((part) => part === '' || part === '.' || part === '..')) return undefined;
  return key;
}

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

/** Which kind of object a key names, or undefined for keys outside the layout. */
export function parseKey(key: string): StoredObject | undefined {
  let match = new RegExp(`^uploads/(${UUID})/[^/]+$`).exec(key);
  if (match) return { kind: 'upload', userId: match[1]! };
  match = new RegExp(`^media/(${UUID})/full\\.(${FULL_FORMATS.join('|')})$`).exec(key);
  if (match) return { kind: 'full', mediaId: match[1]! };
  match = new RegExp(`^thumbs/(${UUID})/(\\d+)\\.webp$`).exec(key);
  if (match) return { kind: 'rendition', mediaId: match[1]!, width: Number(match[2]) };
  match = new RegExp(`^share/(${UUID})/[0-9a-f]{16,64}\\.jpg$`).exec(key);
  if (match) return { kind: 'share', vehicleId: match[1]! };
  match = new RegExp(`^exports/accounts/(${UUID})\\.zip$`).exec(key);
  if (match) return { kind: 'account-export', exportId: match[1]! };
  match = new RegExp(`^exports/signs/(${UUID})\\.pdf$`).exec(key);
  if (match) return { kind: 'sign', exportId: match[1]! };
  if (/^exports\/quartett\/[^/]+\.pdf$/.test(key)) return { kind: 'export' };
  if (new RegExp(`^exports/award/${UUID}/${UUID}\\.pdf$`).test(key)) return { kind: 'award' };
  if (new RegExp(`^exports/jury/${UUID}/v\\d+\\.pdf$`).test(key)) return { kind: 'jury' };
  return undefined;
}

/**
 * Every object a media item owns in the bucket: its upload (until cleaned), its renditions and its
 * print photo.
 */
export function mediaObjectKeys(media: Pick<Media, 'id' | 'url' | 'uploadKey'>): string[] {
  const full = keyOf(media.url);
  return [
    ...(media.uploadKey ? [media.uploadKey] : []),
    ...(full ? [full] : []),
    ...THUMBNAIL_WIDTHS.map((width) => renditionKey(media.id, width)),
    printPhotoKey(media.id),
  ];
}

export type Visibility = 'public' | 'private';

/**
 * How long a shared cache or the browser may serve a public object without asking again. Who may
 * see an object changes (a consent withdrawn, a vehicle's status), its bytes do not: short, and the
 * question after it is a cheap 304 by ETag or Last-Modified.
 */
export const PUBLIC_OBJECT_MAX_AGE_SECONDS = 300;

/** Cache-Control of a served object: public ones for minutes, others private and asked every time. */
export const objectCacheControl = (visibility: Visibility) =>
  visibility === 'public' ? `public, max-age=${PUBLIC_OBJECT_MAX_AGE_SECONDS}` : 'private, no-cache';

/**
 * Who may read an object, per the table above: 'public' (anyone, cacheable by shared caches for minutes),
 * 'private' (this user may), or undefined (this user may not; answer as if it did not exist).
 */
export async function visibilityOf(
  em: EntityManager,
  user: User | undefined,
  key: string,
  now: Date = new Date(),
): Promise<Visibility | undefined> {
  const object = parseKey(key);
  if (!object || object.kind === 'upload') return undefined;
  if (object.kind === 'export') return user?.role === 'admin' ? 'private' : undefined;
  if (object.kind === 'award' || object.kind === 'jury')
    return user?.role === 'admin' ? 'private' : undefined;
  if (object.kind === 'account-export') {
    if (!user) return undefined;
    const found = await em.findOne(DataExport, { id: object.exportId, user: user.id, status: 'ready' });
    return found?.expiresAt && found.expiresAt > now ? 'private' : undefined;
  }
  if (object.kind === 'sign') {
    if (!user) return undefined;
    const sign = await em.findOne(
      SignExport,
      { id: object.exportId, status: 'ready' },
      { populate: ['vehicle'] },
    );
    if (!sign) return undefined;
    if (!sign.vehicle) return user.role === 'admin' ? 'private' : undefined;
    return isStaffRole(user.role) || sign.vehicle.user.id === user.id ? 'private' : undefined;
  }
  if (object.kind === 'share') {
    // Only the preview the car's page names; it goes with the car's place on the public list.
    const listed = await em.count(PublicVehicle, { vehicle: object.vehicleId, shareImage: key });
    return listed ? 'public' : undefined;
  }
  const media = await em.findOne(Media, { id: object.mediaId }, { populate: ['vehicle'] });
  if (!media) return undefined;
  if (
    media.vehicle.status === 'confirmed' &&
    media.approvalStatus !== 'rejected' &&
    !(await consentWithdrawn(em, media.vehicle.id, 'media'))
  ) {
    return 'public';
  }
  return user && (isStaffRole(user.role) || media.vehicle.user.id === user.id) ? 'private' : undefined;
}
