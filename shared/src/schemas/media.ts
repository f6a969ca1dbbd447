import * as v from 'valibot';
import { CROP_LIMITS, IMAGE_MIME_TYPES, MAX_IMAGE_BYTES } from '../constants.js';
import { MEDIA_TYPES } from '../status.js';
import { fieldObject } from './issues.js';

/** Media of a vehicle and upload signing. */

const URL_MAX = 1024;
const FILENAME_MAX = 255;

const MSG = {
  type: 'Ungültiger Medientyp',
  url: 'Ungültiger Objektpfad',
  isHero: 'Hauptbild muss wahr oder falsch sein',
  crop: 'Bitte geben Sie einen gültigen Wert ein',
  mediaId: 'Ungültige Medien-ID',
  updates: 'Änderungen müssen eine Liste sein',
  updatesMax: 'Zu viele Änderungen auf einmal',
  filename: 'Dateiname ist erforderlich',
  filenameMax: `Dateiname darf höchstens ${FILENAME_MAX} Zeichen lang sein`,
  imageOnly: 'Nur Bilddateien sind erlaubt.',
  size: 'Dateigröße ist erforderlich',
  sizeEmpty: 'Die Datei ist leer.',
  sizeMax: 'Das Bild darf höchstens 10 MB groß sein.',
} as const;

/** A plain decimal such as '50', '12.5' or '12,5'. */
const NUMERIC_STRING = /^[+-]?(\d+([.,]\d*)?|[.,]\d+)$/;

/** Stored with two decimals (DECIMAL_PRECISION.crop). */
const roundToHundredth = (value: number) => Math.round(value * 100) / 100;

/** Optional crop value: a number or numeric string (decimals travel as text), clamped into range. */
const cropValue = (limits: { min: number; max: number }) =>
  v.optional(
    v.pipe(
      v.union([v.number(), v.pipe(v.string(), v.trim(), v.regex(NUMERIC_STRING, MSG.crop))], MSG.crop),
      v.transform((value) => (typeof value === 'number' ? value : Number(value.replace(',', '.')))),
      v.number(MSG.crop),
      v.finite(MSG.crop),
      v.toMinValue(limits.min),
      v.toMaxValue(limits.max),
      v.transform(roundToHundredth),
    ),
  );

const cropEntries = {
  cropX: cropValue(CROP_LIMITS.cropX),
  cropY: cropValue(CROP_LIMITS.cropY),
  scale: cropValue(CROP_LIMITS.scale),
};

/** An object path under /objects/ without empty, '.' or '..' segments. */
const objectPath = v.pipe(
  v.string(MSG.url),
  v.trim(),
  v.startsWith('/objects/', MSG.url),
  v.maxLength(URL_MAX, MSG.url),
  v.check(
    (path) =>
      path
        .slice('/objects/'.length)
        .split('/')
        .every((part) => part !== '' && part !== '.' && part !== '..'),
    MSG.url,
  ),
);

/** Body of POST /api/vehicles/{id}/media. */
export const MediaCreateSchema = fieldObject({
  type: v.optional(v.picklist(MEDIA_TYPES, MSG.type), 'image'),
  url: objectPath,
  isHero: v.optional(v.boolean(MSG.isHero)),
  ...cropEntries,
});
export type MediaCreate = v.InferOutput<typeof MediaCreateSchema>;

/** Body of PATCH /api/vehicles/{id}/media. */
export const MediaUpdateSchema = fieldObject({
  updates: v.pipe(
    v.array(
      fieldObject({
        id: v.pipe(v.string(MSG.mediaId), v.uuid(MSG.mediaId)),
        isHero: v.optional(v.boolean(MSG.isHero)),
        ...cropEntries,
      }),
      MSG.updates,
    ),
    v.maxLength(100, MSG.updatesMax),
  ),
});
export type MediaUpdate = v.InferOutput<typeof MediaUpdateSchema>;

const filename = v.pipe(
  v.string(MSG.filename),
  v.trim(),
  v.nonEmpty(MSG.filename),
  v.maxLength(FILENAME_MAX, MSG.filenameMax),
);

/** An image MIME type in any letter case, normalised to lower case. */
const imageMimeType = v.pipe(
  v.string(MSG.imageOnly),
  v.trim(),
  v.toLowerCase(),
  v.picklist(IMAGE_MIME_TYPES, MSG.imageOnly),
);

/** Body of POST /api/objects/upload: what the browser is about to PUT. */
export const UploadRequestSchema = fieldObject({
  filename,
  type: imageMimeType,
  size: v.pipe(
    v.number(MSG.size),
    v.integer(MSG.size),
    v.minValue(1, MSG.sizeEmpty),
    v.maxValue(MAX_IMAGE_BYTES, MSG.sizeMax),
  ),
});
export type UploadRequest = v.InferOutput<typeof UploadRequestSchema>;
