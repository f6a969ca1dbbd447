import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { SIGN_MESSAGES, vehicleDisplayName, type SignFormat } from '@schlosstreffen/shared';
import { SignExport } from '../model/sign-export.entity.js';
import { signRows } from './signs.queries.js';

/** The job's side of the windshield signs: what to render, and how it went. */

/** Everything one sign shows. */
export interface PlannedSign {
  startNumber: number;
  /** The car's name, else brand and model. */
  name: string;
  parkingZone: string;
}

export interface SignPlan {
  format: SignFormat;
  /** The edition's year (the car pages' addresses) and name (printed on the sign). */
  year: number;
  editionName: string;
  /** By start number. */
  signs: PlannedSign[];
}

/**
 * Marks the export rendering and reads its signs, in one transaction. Undefined when it is gone or
 * already ready (a redelivered job); 'empty' (and the export failed) when no car holds a sign now.
 */
export function planSignExport(em: EntityManager, exportId: string): Promise<SignPlan | 'empty' | undefined> {
  return em.fork().transactional(async (tx) => {
    const row = await tx.findOne(
      SignExport,
      { id: exportId },
      { lockMode: LockMode.PESSIMISTIC_WRITE, populate: ['edition'] },
    );
    if (!row || row.status === 'ready') return undefined;
    const rows = await signRows(tx, row.edition.id, row.vehicle?.id);
    if (!rows.length) {
      Object.assign(row, {
        status: 'failed',
        progress: 0,
        signCount: 0,
        error: SIGN_MESSAGES.exportWithoutSigns,
      });
      return 'empty';
    }
    Object.assign(row, { status: 'rendering', progress: 0, error: null });
    return {
      format: row.format as SignFormat,
      year: row.edition.year,
      editionName: row.edition.name,
      signs: rows.map((sign) => ({
        startNumber: sign.start_number,
        name: vehicleDisplayName({ name: sign.name, brand: sign.brand ?? '', model: sign.model ?? '' }),
        parkingZone: sign.parking_zone,
      })),
    };
  });
}

export async function recordSignProgress(
  em: EntityManager,
  exportId: string,
  percent: number,
): Promise<void> {
  await em.fork().nativeUpdate(SignExport, { id: exportId, status: 'rendering' }, { progress: percent });
}

export async function recordSignReady(
  em: EntityManager,
  exportId: string,
  result: { key: string; signCount: number },
): Promise<void> {
  await em.fork().nativeUpdate(
    SignExport,
    { id: exportId },
    {
      status: 'ready',
      progress: 100,
      signCount: result.signCount,
      fileKey: result.key,
      error: null,
      finishedAt: new Date(),
    },
  );
}

/** Stores why an attempt failed (operators' text), unless the export is ready meanwhile. */
export async function recordSignFailed(em: EntityManager, exportId: string, error: unknown): Promise<void> {
  const message = error instanceof Error ? error.message : String(error);
  await em
    .fork()
    .nativeUpdate(
      SignExport,
      { id: exportId, status: { $ne: 'ready' } },
      { status: 'failed', error: message.slice(0, 2000) },
    );
}
