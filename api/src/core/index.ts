/**
 * The domain core: what the api and the worker share, and the only entry through which the worker
 * (and the bench) reach into this package (`@schlosstreffen/api/core`). Nothing under `core/` knows
 * HTTP; failures are `DomainError`s (a code and a German message) that each edge maps itself.
 *
 * - configuration: the environment, validated once per process; the one logger
 * - database: the ORM, its entities and migrations
 * - outbox: side effects recorded with the change that causes them, relayed to the job queues
 * - storage: the bucket's key layout and who may read which object
 * - use cases the worker runs: issuing invitations, recording renditions and refused images,
 *   planning and bookkeeping of the quartett export, the email log
 */

// The visitors' award: the signed voter cookie's value (the bench prepares voters with it), its certificates.
export { createAwardToken } from './award/award.js';
export {
  awardCertificateTasks,
  recordAwardCertificates,
  type AwardCertificate,
} from './award/certificates.js';
// The jury's certificates: one print file per edition and version of its results.
export {
  juryCertificateTasks,
  recordJuryCertificates,
  type JuryCertificate,
  type JuryCertificatesPlan,
} from './jury/certificates.js';

// Configuration and errors.
export {
  ConfigError,
  defaultRedisPrefix,
  loadApiConfig,
  loadClock,
  loadCommonConfig,
  type ApiConfig,
  type CommonConfig,
  type EventConfig,
  type InvitationRules,
  type S3Config,
} from './config.js';
export { DomainError, type DomainErrorCode } from './errors.js';

// Logging: the one logger, the request id a request hands to its jobs.
export {
  configureLogger,
  currentRequestId,
  logger,
  ORM_LOGGING,
  requestIdOf,
  serializeError,
  withLogContext,
  type LogFormat,
  type Logger,
  type LogLevel,
  type LogSettings,
} from './logger.js';

// Database.
export * from './db/entities.js';
export { initOrm, type Orm } from './db/orm.js';

// Outbox and queues.
export { enqueue, enqueueFollowUp } from './outbox/outbox.js';
export { cappedBackoff, closeQueues, createQueues, JOB_ATTEMPTS, type Queues } from './outbox/queues.js';
export { OutboxRelay } from './outbox/relay.js';
export {
  journalEntry,
  journalLagSeconds,
  markJournalEntryStored,
  oldestUnpublishedAgeSeconds,
} from './outbox/outbox.queries.js';
export {
  connectRedis,
  redisDurabilityProblems,
  warnAboutRedis,
  type RedisTarget,
  type RedisUse,
} from './redis.js';

// Operations: the outcome of backups, as the worker's metrics report it.
export {
  backupStatusKey,
  readBackupStatus,
  recordBackupOutcome,
  type BackupOutcome,
} from './metrics/backup-status.js';
export { bearerMatches, createMetricsRegistry, METRIC_PREFIX } from './metrics/metrics.js';

// Storage.
export {
  accountExportKey,
  contentTypeOf,
  exportKey,
  signExportKey,
  fullKey,
  juryCertificatesKey,
  objectPathOf,
  printPhotoKey,
  renditionKey,
  uploadPrefix,
  webAssetKey,
  type FullFormat,
} from './storage/objects.js';
export {
  createS3Client,
  deleteKeys,
  ensureBucket,
  listKeys,
  listObjects,
  type ListedObject,
} from './storage/s3.js';
export { ORPHAN_PREFIXES, unnamedKeys } from './storage/orphans.js';
export { DeletionsHeldError, deletionFence, type DeletionFence } from './storage/deletion-fence.js';
// Backups and the erasure journal beyond one host.
export { loadBackupStorage, type BackupStorage, type OffsiteConfig } from './storage/backup-storage.js';
export {
  directoryJournal,
  journalStoreOf,
  type ErasureJournalStore,
} from './storage/erasure-journal-store.js';
export type { Erasure, ErasureEntry, ErasureKind } from './model/erasure-journal.entity.js';

// Secrets in job payloads and passwords.
export { unseal } from './crypto/seal.js';
export { hashPassword, verifyPassword } from './accounts/password.js';

// Use cases the worker runs.
export {
  collectAccountData,
  recordDataExportFailed,
  recordDataExportProgress,
  recordDataExportReady,
  type AccountData,
} from './accounts/data-export.js';
export { runDueWork, type DueWorkReport, type ScheduleConfig } from './scheduler.js';
export {
  chosenEdition,
  EditionEvents,
  eventOfEdition,
  fixedEvent,
  type EditionEvent,
  type EditionRef,
  type EventSource,
} from './editions/edition-events.js';
export {
  createEdition,
  currentEdition,
  editionIdOfVehicle,
  makeCurrent,
  openApplications,
} from './editions/editions.js';
export { createVisitorToken } from './visitors/visitor.service.js';
export {
  claimNextRecipient,
  finishIfDone,
  recordPreview,
  recordRecipient,
  updateForSending,
  type ClaimedRecipient,
  type RecipientCounts,
} from './visitor-updates/visitor-updates.js';
export { rebuildProjections, type RebuildReport } from './status-log/projections.js';
export {
  beginEmail,
  bounceOf,
  clearBounces,
  emailDeferred,
  emailFailed,
  emailHeld,
  emailRefused,
  emailRendered,
  emailSent,
  isConfirmedAccountAddress,
} from './emails/email-log.js';
export { permanentRefusal, type PermanentRefusal } from './emails/smtp-refusal.js';
export { resendVehicleMail, vehicleMails } from './vehicles/vehicle-mails.js';
export { currentMailText } from './texts/mail-templates.js';
export { issueInvitation, type IssuedInvitation } from './invitations/invitation.issue.js';
export { nextStartNumber } from './invitations/invitations.queries.js';
export { declineLocked } from './invitations/decline.js';
export type { PlacesOptions } from './invitations/places.js';
export { advanceWaitlist, rankWaitlist, type AdvanceReport } from './invitations/waitlist.js';
export { allocateTickets } from './visitors/tickets.js';
export { ticketLinksOf } from './visitors/visitor.service.js';
export {
  forgetUpload,
  recordRenditions,
  rejectImage,
  renditionTask,
  type RenditionTask,
} from './media/renditions.js';
export {
  exportPending,
  planQuartettExport,
  recordExportFailed,
  recordExportProgress,
  recordExportReady,
  type CardPhoto,
  type ExportPlan,
  type PlannedCard,
} from './quartett/export.js';
export { mediaExists, printPhotoTask, type PrintPhotoTask } from './quartett/print-photo.js';
export { recordShareImage, shareImageTask, type ShareImageSource } from './public-list/share-image.js';
export {
  planSignExport,
  recordSignFailed,
  recordSignProgress,
  recordSignReady,
  type PlannedSign,
  type SignPlan,
} from './signs/export.js';
