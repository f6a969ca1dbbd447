import type { Redis } from 'ioredis';

/**
 * The outcome of the last backups, kept in Redis under the deployment's prefix so that every worker
 * reports the same figures (`schlosstreffen_last_backup_timestamp_seconds`,
 * `schlosstreffen_backup_last_failure_timestamp_seconds`): `backup:create` writes the moment it
 * finished, in whole epoch seconds, on success or on failure. The keys never expire.
 */
export type BackupOutcome = 'success' | 'failure';

export const backupStatusKey = (prefix: string, outcome: BackupOutcome): string =>
  `${prefix}:backup:last-${outcome}`;

/** Records that a backup finished (`success`) or failed (`failure`) at `at`. */
export async function recordBackupOutcome(
  redis: Redis,
  prefix: string,
  outcome: BackupOutcome,
  at: Date = new Date(),
): Promise<void> {
  await redis.set(backupStatusKey(prefix, outcome), String(Math.floor(at.getTime() / 1000)));
}

/** When the last backup succeeded and the last one failed, in epoch seconds; 0 for never. */
export async function readBackupStatus(
  redis: Redis,
  prefix: string,
): Promise<{ lastSuccess: number; lastFailure: number }> {
  const [success, failure] = await redis.mget(
    backupStatusKey(prefix, 'success'),
    backupStatusKey(prefix, 'failure'),
  );
  const seconds = (value: string | null | undefined) => {
    const n = Number(value);
    return value != null && Number.isFinite(n) && n > 0 ? n : 0;
  };
  return { lastSuccess: seconds(success), lastFailure: seconds(failure) };
}
