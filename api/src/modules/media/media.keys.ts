import { THUMBNAIL_WIDTHS, thumbnailKey } from '@schlosstreffen/shared';
import { keyOf } from '../uploads/object-keys.js';
import type { Media } from './media.entity.js';

/** Every object a media item owns in the bucket: the original and its renditions. */
export function mediaObjectKeys(media: Media): string[] {
  const original = keyOf(media.url);
  return [...(original ? [original] : []), ...THUMBNAIL_WIDTHS.map((width) => thumbnailKey(media.id, width))];
}
