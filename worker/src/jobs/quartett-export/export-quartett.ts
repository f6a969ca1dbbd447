import { randomUUID } from 'node:crypto';
import { rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  exportKey,
  exportPending,
  planQuartettExport,
  recordExportFailed,
  recordExportProgress,
  recordExportReady,
} from '@schlosstreffen/api/core';
import { QUARTETT_MESSAGES } from '@schlosstreffen/shared';
import type { Storage } from '../../adapters/storage.js';
import type { JobHandler } from '../dispatch.js';
import { preparePhoto, readPrintPhoto } from './pdf/photo.js';
import { renderOnThread } from './pdf/thread.js';

export interface ExportQuartettDeps {
  em: EntityManager;
  storage: Storage;
  /** Printed on the card backs. */
  eventName: string;
}

export type QuartettExportResult =
  | {
      status: 'done';
      cardCount: number;
      pages: number;
      key: string;
      bytes: number;
      /** Cards whose photo was prepared here because its print photo was missing or stale. */
      preparedHere: number;
    }
  | { status: 'failed'; reason: string }
  | { status: 'skipped' };

/** Progress is written at most every this many percent. */
const PROGRESS_STEP = 2;
/** Rendering takes progress up to here; the upload completes it. */
const RENDER_SHARE = 95;
/** Print photos fetched ahead of the card being drawn (each about 60 kB). */
const PREFETCH = 8;
/** Photos prepared at once here when their print photo is missing or stale (sharp, CPU bound). */
const PREPARE_AT_ONCE = 2;

/** Runs at most `limit` of the calls at once, in call order. */
function limited(limit: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async <T>(run: () => Promise<T>): Promise<T> => {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    running += 1;
    try {
      return await run();
    } finally {
      running -= 1;
      waiting.shift()?.();
    }
  };
}

/**
 * Renders a quartett set's print PDF into a temporary file, then uploads it. Each card's photo is
 * the print photo the `quartett.print-photo` job wrote; one that is missing or was made from another
 * image or crop is prepared here, so the PDF is right either way. The set's cards are
 * fixed first; a redelivered job of a ready set is skipped, any other attempt starts over. Errors
 * are stored on the set and thrown, so BullMQ retries.
 */
export function createExportQuartett(deps: ExportQuartettDeps): JobHandler<'quartett.export'> {
  return async ({ setId }, job): Promise<QuartettExportResult> => {
    if (!(await exportPending(deps.em, setId))) return { status: 'skipped' };

    const tmp = path.join(os.tmpdir(), `quartett-${setId}-${randomUUID()}.pdf`);
    try {
      const plan = await planQuartettExport(deps.em, setId);
      if (!plan) return { status: 'skipped' };
      if (plan === 'empty') return { status: 'failed', reason: QUARTETT_MESSAGES.exportWithoutCards };

      let reported = 0;
      let preparedHere = 0;
      const prepare = limited(PREPARE_AT_ONCE);
      await job.updateProgress(0);
      const result = await renderOnThread(
        {
          file: tmp,
          title: plan.title,
          version: plan.version,
          eventName: deps.eventName,
          cards: plan.cards.map(({ photo, ...face }) => ({ face, photo: Boolean(photo) })),
          prefetch: PREFETCH,
        },
        {
          loadPhoto: async (index) => {
            const photo = plan.cards[index]?.photo;
            if (!photo) return undefined;
            const ready = await readPrintPhoto(deps.storage, photo);
            if (ready) return ready;
            preparedHere += 1;
            return prepare(() => preparePhoto(deps.storage, photo));
          },
          onProgress: async (done, total) => {
            const percent = Math.floor((done / total) * RENDER_SHARE);
            if (percent < reported + PROGRESS_STEP) return;
            reported = percent;
            await job.updateProgress(percent);
            await recordExportProgress(deps.em, setId, percent);
          },
        },
      );

      const key = exportKey(plan.version, setId);
      const { size } = await stat(tmp);
      await deps.storage.putFile(key, tmp, {
        contentType: 'application/pdf',
        cacheControl: 'private, no-cache',
      });
      await recordExportReady(deps.em, setId, { key, cardCount: result.cards });
      await job.updateProgress(100);
      return {
        status: 'done',
        cardCount: result.cards,
        pages: result.pages,
        key,
        bytes: size,
        preparedHere,
      };
    } catch (error) {
      await recordExportFailed(deps.em, setId, error).catch(() => undefined);
      throw error;
    } finally {
      await rm(tmp, { force: true });
    }
  };
}
