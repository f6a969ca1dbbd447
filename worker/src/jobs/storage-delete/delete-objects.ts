import { UnrecoverableError } from 'bullmq';
import type { Storage } from '../../adapters/storage.js';
import type { JobHandler } from '../dispatch.js';

export interface DeleteObjectsDeps {
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
export function createDeleteObjects(deps: DeleteObjectsDeps): JobHandler<'storage.delete'> {
  return async ({ keys, prefixes = [] }): Promise<StorageDeleteResult> => {
    const wide = prefixes.find((prefix) => !isNarrowPrefix(prefix));
    if (wide) throw new UnrecoverableError(`refusing to delete everything under ${wide}`);

    const all = new Set(keys);
    for (const prefix of prefixes) for (const key of await deps.storage.list(prefix)) all.add(key);
    await deps.storage.deleteMany([...all]);
    return { status: 'deleted', deleted: all.size };
  };
}
