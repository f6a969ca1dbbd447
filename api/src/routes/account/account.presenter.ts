import { vehicleDisplayName } from '@schlosstreffen/shared';
import type * as Api from '@schlosstreffen/shared/api';
import type { Consent } from '../../core/model/consent.entity.js';
import type { DataExport } from '../../core/model/data-export.entity.js';
import { objectPathOf } from '../../core/storage/objects.js';

export function presentConsent(consent: Consent): Api.Consent {
  const vehicle = consent.vehicle;
  return {
    id: consent.id,
    kind: consent.kind,
    vehicleId: vehicle?.id ?? null,
    vehicleTitle: vehicle ? vehicleDisplayName(vehicle) : null,
    version: consent.version,
    wording: consent.wording,
    source: consent.source,
    grantedAt: consent.grantedAt.toISOString(),
    withdrawnAt: consent.withdrawnAt?.toISOString() ?? null,
  };
}

/** The file name the browser saves a data export under. */
export const dataExportName = (createdAt: Date) =>
  `schlosstreffen-meine-daten-${createdAt.toISOString().slice(0, 10)}.zip`;

export function presentDataExport(row: DataExport, now = new Date()): Api.DataExport {
  const downloadable = row.status === 'ready' && row.objectKey && row.expiresAt && row.expiresAt > now;
  return {
    id: row.id,
    status: row.status,
    progress: row.progress,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt?.toISOString() ?? null,
    downloadUrl: downloadable
      ? `${objectPathOf(row.objectKey!)}?download=${encodeURIComponent(dataExportName(row.createdAt))}`
      : null,
    error: row.status === 'failed' ? 'Der Export ist fehlgeschlagen. Bitte versuche es erneut.' : null,
  };
}
