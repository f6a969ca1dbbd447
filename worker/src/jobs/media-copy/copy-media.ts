import type { EntityManager } from '@mikro-orm/postgresql';
import { contentTypeOf, enqueueFollowUp, Media, rejectImage } from '@schlosstreffen/api/core';
import { EDITION_MESSAGES, MAX_IMAGE_BYTES } from '@schlosstreffen/shared';
import type { Storage } from '../../adapters/storage.js';
import type { JobHandler } from '../dispatch.js';

export interface CopyMediaDeps {
  em: EntityManager;
  storage: Storage;
  /** Called after a commit that wrote outbox rows (wakes this process's relay). */
  onOutbox?: () => void;
}

export type CopyMediaResult =
  { status: 'copied' } | { status: 'skipped' } | { status: 'rejected'; reason: string };

/**
 * A photo carried over to a new application: the earlier application's clean copy is stored as the
 * new row's upload, and the thumbnail job is queued for it (once per job, retries included), which
 * cleans and renders it like any upload. Safe to run twice: a row already rendered is skipped, and
 * copying the same bytes again changes nothing. A photo whose source is gone is refused on the row.
 */
export function createCopyMedia(deps: CopyMediaDeps): JobHandler<'media.copy'> {
  return async ({ mediaId, from }, job): Promise<CopyMediaResult> => {
    const media = await deps.em.fork().findOne(Media, { id: mediaId });
    if (!media?.uploadKey || media.approvalStatus === 'rejected') return { status: 'skipped' };
    const body = await deps.storage.get(from, MAX_IMAGE_BYTES);
    if (!body) {
      await rejectImage(deps.em, mediaId, EDITION_MESSAGES.photoGone, media.uploadKey);
      return { status: 'rejected', reason: EDITION_MESSAGES.photoGone };
    }
    await deps.storage.put(media.uploadKey, body, {
      contentType: contentTypeOf(media.uploadKey.split('.').pop() ?? 'jpg'),
      cacheControl: 'private, no-store',
    });
    await deps.em
      .fork()
      .transactional((tx) =>
        enqueueFollowUp(tx, { jobId: job.id ?? mediaId, what: 'thumbnail' }, 'media.thumbnail', { mediaId }),
      );
    deps.onOutbox?.();
    return { status: 'copied' };
  };
}
