import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  accountExportKey,
  collectAccountData,
  recordDataExportFailed,
  recordDataExportProgress,
  recordDataExportReady,
} from '@schlosstreffen/api/core';
import { MAX_IMAGE_BYTES, type RetentionPeriods } from '@schlosstreffen/shared';
import { ZipArchive } from 'archiver';
import type { Storage } from '../../adapters/storage.js';
import type { JobHandler } from '../dispatch.js';

export interface ExportAccountDeps {
  em: EntityManager;
  storage: Storage;
  retention: RetentionPeriods;
}

export type AccountExportResult =
  { status: 'done'; key: string; photos: number; bytes: number } | { status: 'skipped' };

const README = `Deine Daten beim Schlosstreffen

konto.json                     dein Konto
einwilligungen.json            deine Einwilligungen mit Zeitpunkt und Wortlaut
fahrzeuge.json                 deine Fahrzeuge mit ihren Bildern
statusverlauf.json             der Verlauf deiner Bewerbungen (ohne interne Notizen)
einladungen.json               deine Einladungen mit Startnummer, Parkzone und Check-in-Code
besucher-voranmeldungen.json   Besucher-Voranmeldungen mit deiner E-Mail-Adresse
publikumsliebling-stimmen.json deine Stimmen zum Publikumsliebling
jury.json                      deine Bewertungen und Befangenheiten als Jurymitglied, Einladungen in die Jury
fotos/                         deine Fotos, so wie wir sie speichern (ohne Metadaten)
`;

/**
 * Builds a person's data export: the JSON documents of `collectAccountData` and their clean photos
 * in one ZIP, written to a temporary file, then stored under a key only its owner may read. Progress
 * goes to the export row; a retried job starts over. An export whose row is gone by the time its
 * ZIP is stored deletes the ZIP again (retention's sweep removes any left behind by a crash).
 */
export function createExportAccount(deps: ExportAccountDeps): JobHandler<'account.export'> {
  return async ({ exportId }, job): Promise<AccountExportResult> => {
    const data = await collectAccountData(deps.em, exportId);
    if (!data) return { status: 'skipped' };
    const tmp = path.join(os.tmpdir(), `account-${exportId}-${randomUUID()}.zip`);
    try {
      const archive = new ZipArchive({ store: true });
      const output = createWriteStream(tmp);
      archive.pipe(output);
      archive.append(README, { name: 'LIESMICH.txt' });
      for (const [name, document] of Object.entries(data.documents)) {
        archive.append(`${JSON.stringify(document, null, 2)}\n`, { name });
      }
      let done = 0;
      for (const photo of data.photos) {
        const bytes = await deps.storage.get(photo.key, MAX_IMAGE_BYTES);
        if (bytes) archive.append(bytes, { name: photo.name });
        done += 1;
        const percent = Math.floor((done / data.photos.length) * 90);
        await job.updateProgress(percent);
        await recordDataExportProgress(deps.em, exportId, percent);
      }
      await archive.finalize();
      await finished(output);
      const key = accountExportKey(exportId);
      const { size } = await stat(tmp);
      await deps.storage.putFile(key, tmp, {
        contentType: 'application/zip',
        cacheControl: 'private, no-store',
      });
      if (!(await recordDataExportReady(deps.em, exportId, key, deps.retention))) {
        // The account (or the export) was deleted while the ZIP was built: take it back.
        await deps.storage.deleteMany([key]);
        return { status: 'skipped' };
      }
      await job.updateProgress(100);
      return { status: 'done', key, photos: data.photos.length, bytes: size };
    } catch (error) {
      await recordDataExportFailed(deps.em, exportId, error).catch(() => undefined);
      throw error;
    } finally {
      await rm(tmp, { force: true });
    }
  };
}
