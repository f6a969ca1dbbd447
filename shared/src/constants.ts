/**
 * Business constants and limits. Event facts here are the defaults; the server may
 * override them through configuration so that the next edition needs no code change.
 */

// Event: 20 June 2026, 10:00 to 20:00 local time at the venue.
export const EVENT_TIMEZONE = 'Europe/Berlin';
/** Start and end with the venue's offset (CEST, UTC+2), safe for `Date.parse` in any browser. */
export const EVENT_START_INSTANT = '2026-06-20T10:00:00+02:00';
export const EVENT_END_INSTANT = '2026-06-20T20:00:00+02:00';

// Landing page.
/** Stats strip: each value is shown with its suffix after the count-up. */
export const STATS = {
  guests: { value: 1000, suffix: '+' },
  vehicles: { value: 70, suffix: '+' },
  horsepower: { value: 21000, suffix: '+' },
  locations: { value: 1, suffix: '' },
} as const;
export const COUNT_UP_MS = 2000;
export const COUNTDOWN_TICK_MS = 1000;
export const HEADER_SCROLL_THRESHOLD_PX = 50;
export const CAROUSEL_INTERVAL_MS = 90_000;

// Accounts.
export const PASSWORD_MIN_LENGTH = 8;
/** Reset links are valid for one hour. */
export const RESET_TOKEN_TTL_MS = 3_600_000;
/** Redirect to /login this long after a successful reset. */
export const RESET_REDIRECT_MS = 2000;

// Vehicles.
/**
 * Numeric limits, inclusive. Entries after `year` are not in the spec: generous sanity caps. The
 * year's upper bound is the configured event's year (`eventYear`), not a constant.
 */
export const VEHICLE_LIMITS = {
  ps: { min: 50, max: 3000 },
  weightKg: { min: 500, max: 3000 },
  topSpeedKmh: { min: 100, max: 500 },
  zeroToHundredS: { min: 0, max: 300 },
  quarterMileS: { min: 0, max: 60 },
  year: { min: 1950 },
  kw: { min: 0, max: 2500 },
  torqueNm: { min: 0, max: 5000 },
  displacementCcm: { min: 0, max: 20_000 },
  cylinders: { min: 0, max: 24 },
} as const;

/** Maximum lengths of vehicle text fields (not in the spec; match the database columns). */
export const VEHICLE_TEXT_MAX = {
  name: 100,
  brand: 100,
  model: 100,
  color: 60,
  licensePlate: 20,
  vin: 17,
  tuningCategory: 50,
  tuningCategories: 20,
  descriptionShort: 500,
  descriptionLong: 5000,
  specialMods: 5000,
} as const;

/** Stored decimals: total digits and digits after the point. */
export const DECIMAL_PRECISION = {
  /** zeroToHundredS and quarterMileS. */
  seconds: { precision: 4, scale: 1 },
  /** cropX, cropY and scale. */
  crop: { precision: 5, scale: 2 },
} as const;

/** Defaults of the application wizard; `year` is the current year, see `getCreateDefaults`. */
export const CREATE_DEFAULTS = {
  ps: 150,
  weightKg: 1200,
  topSpeedKmh: 200,
  zeroToHundredS: 60,
} as const;

/** The year of the event at the venue: the upper bound of a vehicle's year (2026 for the 2026 edition). */
/* @__NO_SIDE_EFFECTS__ */
export function eventYear(eventStart: string | Date = EVENT_START_INSTANT): number {
  const year = new Intl.DateTimeFormat('en-GB', { timeZone: EVENT_TIMEZONE, year: 'numeric' }).format(
    new Date(eventStart),
  );
  return Number(year);
}

/** Wizard defaults with the current year, kept between the first allowed year and the event's year. */
export function getCreateDefaults(
  now: Date = new Date(),
  maxYear: number = eventYear(),
): typeof CREATE_DEFAULTS & { year: number } {
  const { min } = VEHICLE_LIMITS.year;
  return { ...CREATE_DEFAULTS, year: Math.min(maxYear, Math.max(min, now.getFullYear())) };
}

export const WIZARD_STEPS_CREATE = 4;
export const WIZARD_STEPS_EDIT = 3;

// Images.
export const MAX_IMAGES_PER_VEHICLE = 10;
/** 10 MB per image. */
export const MAX_IMAGE_BYTES = 10_485_760;
/** Recommended number of images per application (not enforced). */
export const RECOMMENDED_IMAGES = { min: 3, max: 10 } as const;
/** What the worker can decode (HEIC/HEVC is not among sharp's decoders, so it is refused up front). */
export const IMAGE_MIME_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/avif', 'image/gif'] as const;

/**
 * What one account may hold or start, so that no single account fills the database, the queues or
 * the bucket. Upload bytes count what the server signed in the last 24 hours; data exports count
 * those started in the last 24 hours.
 */
export const ACCOUNT_LIMITS = {
  /** Vehicles per account, drafts included. */
  vehicles: 10,
  /** Data exports per account and 24 hours (and never two at a time). */
  dataExportsPerDay: 3,
  /** Upload bytes signed per account and 24 hours: 50 images of the largest size. */
  uploadBytesPerDay: 50 * MAX_IMAGE_BYTES,
} as const;

/** German answers when an account reaches one of ACCOUNT_LIMITS. */
export const ACCOUNT_LIMIT_MESSAGES = {
  vehicles: `Pro Konto sind höchstens ${ACCOUNT_LIMITS.vehicles} Fahrzeuge möglich (Entwürfe eingeschlossen). Lösche einen Entwurf, um ein neues Fahrzeug anzulegen.`,
  dataExports: `Du kannst höchstens ${ACCOUNT_LIMITS.dataExportsPerDay} Datenexporte in 24 Stunden anfordern. Bitte versuche es später noch einmal.`,
  uploadBytes: `Du hast in den letzten 24 Stunden so viele Bilder hochgeladen, wie pro Konto möglich sind (${ACCOUNT_LIMITS.uploadBytesPerDay / 1_048_576} MB). Bitte versuche es später noch einmal.`,
} as const;

/** Widths of the WebP renditions the worker writes for every image; the first is `thumbnailUrl`. */
export const THUMBNAIL_WIDTHS = [480, 1280] as const;
export type ThumbnailWidth = (typeof THUMBNAIL_WIDTHS)[number];

/** Larger images are refused before their pixels are decoded. */
export const MAX_IMAGE_PIXELS = 50_000_000;

/** Crop position in percent and zoom in percent. */
export const CROP_DEFAULTS = { cropX: 50, cropY: 50, scale: 100 } as const;
export const CROP_LIMITS = {
  cropX: { min: 0, max: 100 },
  cropY: { min: 0, max: 100 },
  scale: { min: 100, max: 200, step: 1 },
} as const;

/** Browser uploader (Uppy with S3 and companion-style multipart). */
export const UPLOADER = {
  concurrency: 6,
  /** Files above this size are uploaded in parts. */
  multipartThresholdBytes: 100 * 1024 * 1024,
  minPartBytes: 5 * 1024 * 1024,
  maxParts: 10_000,
  retryDelaysMs: [0, 1000, 3000, 5000],
  companionRetries: 10,
  socketIdleTimeoutMs: 5 * 60 * 1000,
  /** Uppy's default; the server signs uploads for minutes only (UPLOAD_URL_SECONDS in the api). */
  presignedUrlExpirySeconds: 604_800,
  noticeDurationMs: 5000,
  progressThrottleMs: 500,
  /** Restriction errors shown at once before a summary. */
  maxRestrictionErrorsShown: 4,
} as const;

/** Skeleton placeholders while loading. */
export const SKELETON = { vehicleCards: 3, mediaGrid: 8 } as const;

/** Card entrance stagger in seconds. */
export const STAGGER = { ownerSeconds: 0.1, adminSeconds: 0.05 } as const;
