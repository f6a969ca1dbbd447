/** Backup and restore (`npm run cli -- backup:*`), for the drill test and the backup service. */
export { createBackup, type CreateBackupOptions, type CreatedBackup } from './create.js';
export { restoreBackup, REQUEUE_HOURS, type RestoreOptions, type RestoreReport } from './restore.js';
export {
  hashFile,
  MANIFEST_FILE,
  objectFile,
  readManifest,
  verifyBackup,
  type Manifest,
  type ManifestObject,
  type VerifyReport,
} from './manifest.js';
export { backupName, DEFAULT_ROTATION, rotate, type RotationPolicy } from './rotation.js';
export {
  runScheduledBackup,
  type BackupLog,
  type BackupRunDeps,
  type BackupSchedule,
  type OffsiteCopies,
} from './schedule.js';
export { openBackup, type BackupSource, type OpenedBackup } from './source.js';
export { DecryptionError, encryptedSize } from './encryption.js';
