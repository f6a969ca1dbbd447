import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  planSignExport,
  recordSignFailed,
  recordSignProgress,
  recordSignReady,
  signExportKey,
} from '@schlosstreffen/api/core';
import { SIGN_MESSAGES } from '@schlosstreffen/shared';
import type { Storage } from '../../adapters/storage.js';
import type { JobHandler } from '../dispatch.js';
import { renderSignPdf } from './render.js';

export interface ExportSignsDeps {
  em: EntityManager;
  storage: Storage;
  /** PUBLIC_URL: the QR codes lead to its car pages. */
  publicUrl: string;
}

export type SignExportResult =
  | { status: 'done'; signs: number; pages: number; key: string; bytes: number }
  | { status: 'failed'; reason: string }
  | { status: 'skipped' };

/** Progress is written at most every this many percent. */
const PROGRESS_STEP = 5;
/** Rendering takes progress up to here; the upload completes it. */
const RENDER_SHARE = 95;

/**
 * Renders a windshield sign PDF (an edition's set or one car's) into a temporary file, then
 * uploads it under the export's key, replacing an earlier rendering. A redelivered job of a ready
 * export is skipped, any other attempt starts over with the names and zones as they are then.
 * Errors are stored on the export and thrown, so BullMQ retries.
 */
export function createExportSigns(deps: ExportSignsDeps): JobHandler<'sign.export'> {
  return async ({ exportId }, job): Promise<SignExportResult> => {
    const tmp = path.join(os.tmpdir(), `signs-${exportId}-${randomUUID()}.pdf`);
    try {
      const plan = await planSignExport(deps.em, exportId);
      if (!plan) return { status: 'skipped' };
      if (plan === 'empty') return { status: 'failed', reason: SIGN_MESSAGES.exportWithoutSigns };

      let reported = 0;
      await job.updateProgress(0);
      const result = await renderSignPdf(createWriteStream(tmp), {
        format: plan.format,
        year: plan.year,
        editionName: plan.editionName,
        publicUrl: deps.publicUrl,
        signs: plan.signs,
        onProgress: async (done, total) => {
          const percent = Math.floor((done / total) * RENDER_SHARE);
          if (percent < reported + PROGRESS_STEP) return;
          reported = percent;
          await job.updateProgress(percent);
          await recordSignProgress(deps.em, exportId, percent);
        },
      });

      const key = signExportKey(exportId);
      const { size } = await stat(tmp);
      await deps.storage.putFile(key, tmp, {
        contentType: 'application/pdf',
        cacheControl: 'private, no-cache',
      });
      await recordSignReady(deps.em, exportId, { key, signCount: result.signs });
      await job.updateProgress(100);
      return { status: 'done', signs: result.signs, pages: result.pages, key, bytes: size };
    } catch (error) {
      await recordSignFailed(deps.em, exportId, error).catch(() => undefined);
      throw error;
    } finally {
      await rm(tmp, { force: true });
    }
  };
}
