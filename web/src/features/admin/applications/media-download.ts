import { mediaFileName, type MediaFileNameSource } from '@schlosstreffen/shared';

/**
 * Downloads of the media library. Single images and the ZIP's entries share one naming rule
 * (`mediaFileName` in shared: vehicle name or brand_model, upload timestamp, original extension).
 */
export { mediaFileName };

/** Every image as one ZIP, streamed by the server; started as a plain download, never fetched into memory. */
export const MEDIA_ARCHIVE_URL = '/api/admin/media.zip';

/** The image as an attachment under its download name (`/objects/…?download=<name>`). */
export function mediaDownloadUrl(media: MediaFileNameSource): string {
  return `${media.url}?download=${encodeURIComponent(mediaFileName(media))}`;
}
