import { StorageDeleteJobSchema } from '@schlosstreffen/shared';
import { UnrecoverableError, type Job } from 'bullmq';
import * as v from 'valibot';
import type { Storage } from '../adapters/storage.js';

export interface StorageDeleteProcessorDeps {
  storage: Storage;
}

export interface StorageDeleteResult {
  status: 'deleted';
  /** Keys sent for deletion: the listed ones plus those found under the prefixes. */
  deleted: number;
}

/** A prefix must name at least two levels (`thumbs/{id}/`), so no job can empty a whole area. */
const isNarrowPrefix = (prefix: string) => prefix.split('/').filter(Boolean).length >= 2;

/**
 * Removes objects whose rows are gone. Idempotent: objects that no longer exist count as deleted, so
 * a retried or re-delivered job simply ends.
 */
export function createStorageDeleteProcessor(deps: StorageDeleteProcessorDeps) {
  return async (job: Job): Promise<StorageDeleteResult> => {
    const parsed = v.safeParse(StorageDeleteJobSchema, job.data);
    if (!parsed.success) throw new UnrecoverableError(`invalid storage job: ${parsed.issues[0]?.message}`);
    const { keys, prefixes = [] } = parsed.output;
    const wide = prefixes.find((prefix) => !isNarrowPrefix(prefix));
    if (wide) throw new UnrecoverableError(`refusing to delete everything under ${wide}`);

    const all = new Set(keys);
    for (const prefix of prefixes) for (const key of await deps.storage.list(prefix)) all.add(key);
    await deps.storage.deleteMany([...all]);
    return { status: 'deleted', deleted: all.size };
  };
}
