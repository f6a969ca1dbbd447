import {
  SIGN_EXPORT_STATUS_LABELS,
  SIGN_FORMAT_LABELS,
  signDownloadName,
  type SignExportStatus,
  type SignFormat,
} from '@schlosstreffen/shared';
import type * as Api from '@schlosstreffen/shared/api';
import type { SignExport } from '../../core/model/sign-export.entity.js';
import { objectPathOf } from '../../core/storage/objects.js';

/** A sign PDF (its edition populated); a car's sign is named by the start number it shows. */
export function presentSignExport(sign: SignExport, startNumber?: number | null): Api.SignExport {
  const format = sign.format as SignFormat;
  const status = sign.status as SignExportStatus;
  const downloadName = signDownloadName(sign.edition.year, { format, startNumber });
  const ready = status === 'ready' && sign.fileKey;
  return {
    id: sign.id,
    format,
    formatLabel: SIGN_FORMAT_LABELS[format],
    vehicleId: sign.vehicle?.id ?? null,
    status,
    statusLabel: SIGN_EXPORT_STATUS_LABELS[status],
    progress: sign.progress,
    signCount: sign.signCount,
    downloadName,
    downloadUrl: ready ? `${objectPathOf(sign.fileKey!)}?download=${encodeURIComponent(downloadName)}` : null,
    error: sign.error ?? null,
    createdAt: sign.requestedAt.toISOString(),
    finishedAt: sign.finishedAt?.toISOString() ?? null,
  };
}
