import type { EntityManager } from '@mikro-orm/postgresql';
import { ACCOUNT_LIMIT_MESSAGES, ACCOUNT_LIMITS, PRIVACY_MESSAGES } from '@schlosstreffen/shared';
import { conflict, limitReached, unauthenticated } from '../errors.js';
import { Vehicle } from '../model/vehicle.entity.js';
import { DataExport } from '../model/data-export.entity.js';
import { Upload } from '../model/upload.entity.js';
import { lockAccountRow } from './accounts.queries.js';

/** The window of the per-day limits. */
const WINDOW_MS = 24 * 3600 * 1000;

/**
 * Locks the account's row for the caller's transaction, so two requests of one account count one
 * after the other (and nothing is added to an account being deleted).
 */
async function lockAccount(em: EntityManager, userId: string): Promise<void> {
  // By SQL: the caller's unit of work may hold the user as an entity of another context. NO KEY
  // UPDATE: rows that merely reference the account (sessions, consents) are not held up; account
  // deletion's FOR UPDATE still waits for it, and it for the deletion.
  if (!(await lockAccountRow(em, userId))) throw unauthenticated();
}

/** Seconds until the oldest of the counted entries leaves the window. */
const secondsUntil = (oldest: Date, now: Date) =>
  Math.max(1, Math.ceil((oldest.getTime() + WINDOW_MS - now.getTime()) / 1000));

/**
 * Room for one more application in the edition (drafts count; earlier editions' do not); call inside
 * the creating transaction.
 */
export async function assertVehicleRoom(em: EntityManager, userId: string, editionId: string): Promise<void> {
  await lockAccount(em, userId);
  if ((await em.count(Vehicle, { user: userId, edition: editionId })) >= ACCOUNT_LIMITS.vehicles) {
    throw conflict(ACCOUNT_LIMIT_MESSAGES.vehicles);
  }
}

/**
 * Room for one more data export: none being built, fewer than the limit in the last 24 hours. Call
 * inside the requesting transaction.
 */
export async function assertDataExportRoom(
  em: EntityManager,
  userId: string,
  now = new Date(),
): Promise<void> {
  await lockAccount(em, userId);
  if (await em.count(DataExport, { user: userId, status: { $in: ['queued', 'running'] } })) {
    throw conflict(PRIVACY_MESSAGES.exportRunning);
  }
  const recent = await em.find(
    DataExport,
    { user: userId, createdAt: { $gt: new Date(now.getTime() - WINDOW_MS) } },
    { fields: ['createdAt'], orderBy: { createdAt: 'asc' } },
  );
  if (recent.length >= ACCOUNT_LIMITS.dataExportsPerDay) {
    throw limitReached(ACCOUNT_LIMIT_MESSAGES.dataExports, secondsUntil(recent[0]!.createdAt, now));
  }
}

/** Room for `bytes` more upload bytes signed in the last 24 hours; call inside the signing transaction. */
export async function assertUploadRoom(
  em: EntityManager,
  userId: string,
  bytes: number,
  now = new Date(),
): Promise<void> {
  await lockAccount(em, userId);
  const recent = await em.find(
    Upload,
    { user: userId, createdAt: { $gt: new Date(now.getTime() - WINDOW_MS) } },
    { fields: ['size', 'createdAt'], orderBy: { createdAt: 'asc' } },
  );
  const signed = recent.reduce((sum, upload) => sum + upload.size, 0);
  if (signed + bytes > ACCOUNT_LIMITS.uploadBytesPerDay) {
    // Room again once enough of the oldest uploads have left the window.
    let freed = 0;
    const oldest = recent.find(
      (upload) => (freed += upload.size) >= signed + bytes - ACCOUNT_LIMITS.uploadBytesPerDay,
    );
    throw limitReached(
      ACCOUNT_LIMIT_MESSAGES.uploadBytes,
      oldest ? secondsUntil(oldest.createdAt, now) : 24 * 3600,
    );
  }
}
