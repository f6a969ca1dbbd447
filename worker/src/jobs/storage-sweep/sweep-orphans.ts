import type { EntityManager } from '@mikro-orm/postgresql';
import { ORPHAN_PREFIXES, unnamedKeys } from '@schlosstreffen/api/core';
import type { Storage } from '../../adapters/storage.js';
import type { JobHandler } from '../dispatch.js';

export interface SweepOrphansDeps {
  em: EntityManager;
  storage: Storage;
  /** The clock (tests pass another moment). */
  now?: () => Date;
}

export interface StorageSweepResult {
  status: 'swept';
  deleted: number;
}

/** A signed upload URL lives ten minutes: nothing younger is swept, whatever the job says. */
export const SWEEP_MIN_AGE_MS = 10 * 60 * 1000;

/**
 * Retention's backstop: deletes uploads and data export ZIPs that no row names and that were
 * stored before the payload's moment and at least an upload URL's lifetime ago (so a PUT in flight
 * is never judged). Idempotent: what is gone counts no more.
 */
export function createSweepOrphans(deps: SweepOrphansDeps): JobHandler<'storage.sweep'> {
  return async ({ before }): Promise<StorageSweepResult> => {
    const now = (deps.now ?? (() => new Date()))();
    const cutoff = Math.min(new Date(before).getTime(), now.getTime() - SWEEP_MIN_AGE_MS);
    const old: string[] = [];
    for (const prefix of ORPHAN_PREFIXES) {
      for (const object of await deps.storage.listObjects(prefix)) {
        if (object.lastModified && object.lastModified.getTime() < cutoff) old.push(object.key);
      }
    }
    const orphans = await unnamedKeys(deps.em, old);
    await deps.storage.deleteMany(orphans);
    return { status: 'swept', deleted: orphans.length };
  };
}
