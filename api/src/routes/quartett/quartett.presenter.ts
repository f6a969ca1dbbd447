import { QUARTETT_SET_STATUS_LABELS, type QuartettSetStatus } from '@schlosstreffen/shared';
import type * as Api from '@schlosstreffen/shared/api';
import type { QuartettSet } from '../../core/model/quartett-set.entity.js';

/** File name the admin's browser saves the print PDF under. */
export const quartettDownloadName = (version: number) => `Schlosstreffen-Quartett-v${version}.pdf`;

/** A quartett set as admins see it in the export list. */
export function presentQuartettSet(set: QuartettSet): Api.QuartettSet {
  const downloadName = quartettDownloadName(set.version);
  const exportFileUrl = set.exportFileUrl ?? null;
  return {
    id: set.id,
    title: set.title,
    version: set.version,
    status: set.status,
    statusLabel: QUARTETT_SET_STATUS_LABELS[set.status as QuartettSetStatus],
    progress: set.progress,
    cardCount: set.cardCount,
    exportFileUrl,
    downloadName,
    /** The PDF as an attachment under `downloadName`. */
    downloadUrl: exportFileUrl ? `${exportFileUrl}?download=${encodeURIComponent(downloadName)}` : null,
    error: set.error ?? null,
    createdAt: set.createdAt.toISOString(),
    finishedAt: set.finishedAt?.toISOString() ?? null,
    releasedAt: set.releasedAt?.toISOString() ?? null,
    containsDeletedAccount: set.containsDeletedAccount,
  };
}
