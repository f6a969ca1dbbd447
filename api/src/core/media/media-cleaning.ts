import { setTimeout as sleep } from 'node:timers/promises';
import type { EntityManager } from '@mikro-orm/postgresql';
import { enqueue } from '../outbox/outbox.js';
import { Media } from '../model/media.entity.js';

export interface CleaningProgress {
  total: number;
  cleaned: number;
  remaining: number;
}

/**
 * Cleans what is already stored: every image whose upload was never turned into clean renditions
 * gets a rendition job (through the outbox; the worker does the work, skipping what is done), then
 * the progress is reported until none is left. Returns false when nothing moved for `stallMs`.
 */
export async function cleanStoredMedia(
  em: EntityManager,
  options: {
    wait: boolean;
    report: (progress: CleaningProgress) => void;
    intervalMs?: number;
    stallMs?: number;
  },
): Promise<boolean> {
  const { intervalMs = 2000, stallMs = 60_000 } = options;
  const pending = () =>
    em.fork().count(Media, { uploadKey: { $ne: null }, approvalStatus: { $ne: 'rejected' } });
  await em.fork().transactional(async (tx) => {
    const waiting = await tx.find(
      Media,
      { uploadKey: { $ne: null }, approvalStatus: { $ne: 'rejected' } },
      { fields: ['id'] },
    );
    for (const media of waiting) enqueue(tx, 'media.thumbnail', { mediaId: media.id });
  });
  const total = await pending();
  let remaining = total;
  let lastMove = Date.now();
  options.report({ total, cleaned: 0, remaining });
  while (options.wait && remaining > 0) {
    await sleep(intervalMs);
    const now = await pending();
    if (now !== remaining) {
      remaining = now;
      lastMove = Date.now();
      options.report({ total, cleaned: total - remaining, remaining });
    } else if (Date.now() - lastMove > stallMs) {
      return false;
    }
  }
  return true;
}
