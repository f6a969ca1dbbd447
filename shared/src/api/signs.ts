import type { SignExportStatus, SignFormat } from '../signs.js';

/** A windshield sign PDF: an edition's set (GET/POST /api/admin/signs) or one car's (…/vehicles/{id}/sign). */
export interface SignExport {
  id: string;
  format: SignFormat;
  formatLabel: string;
  /** The car of a single sign; null for an edition's set. */
  vehicleId: string | null;
  status: SignExportStatus;
  statusLabel: string;
  /** Rendering progress in percent. */
  progress: number;
  signCount: number;
  downloadName: string;
  /** The PDF as an attachment (`?download=`), once ready. */
  downloadUrl: string | null;
  /** Why the export failed (operators' text). */
  error: string | null;
  createdAt: string;
  finishedAt: string | null;
}
