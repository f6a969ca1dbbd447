/** What the worker shares with the API: configuration, the ORM and its entities, helpers. */
export * from './entities.js';
export { createOrmConfig, initOrm, type Orm } from './orm.js';
export {
  ConfigError,
  loadCommonConfig,
  type CommonConfig,
  type EventConfig,
  type S3Config,
} from '../config.js';
export { seal, unseal } from '../lib/seal.js';
export { createS3Client, deleteKeys, ensureBucket, listKeys } from '../lib/s3.js';
export { EMAIL_STATUSES } from '../modules/emails/email-log.entity.js';
export { enqueue } from '../outbox/outbox.js';
export { createQueues, closeQueues, DEFAULT_JOB_OPTIONS, type Queues } from '../outbox/queues.js';
export { lockVehicles, refreshPublicVehicles } from '../modules/public-vehicles/public-vehicle.projection.js';
export { keyOf, objectPathOf, uploaderOf, uploadPrefix } from '../modules/uploads/object-keys.js';
export { confirmedVisitorEmails } from '../modules/visitors/visitor.service.js';
export { issueInvitation, type IssuedInvitation } from '../modules/invitations/invitation.issue.js';
export { invitationConfirmUrl } from '../modules/invitations/invitation.service.js';
