import { Consent } from '../accounts/consent.entity.js';
import { DataExport } from '../accounts/data-export.entity.js';
import { Session } from '../accounts/session.entity.js';
import { Upload } from '../accounts/upload.entity.js';
import { RetentionRun } from '../privacy/retention-run.entity.js';
import { EmailLog } from '../emails/email-log.entity.js';
import { Invitation } from '../invitations/invitation.entity.js';
import { Media } from '../media/media.entity.js';
import { PublicVehicle } from '../public-list/public-vehicle.entity.js';
import { QuartettCard } from '../quartett/quartett-card.entity.js';
import { QuartettSet } from '../quartett/quartett-set.entity.js';
import { Review } from '../status-log/review.entity.js';
import { User } from '../accounts/user.entity.js';
import { Vehicle } from '../vehicles/vehicle.entity.js';
import { VisitorRegistration } from '../visitors/visitor-registration.entity.js';
import { VisitorUpdate, VisitorUpdateRecipient } from '../visitor-updates/visitor-update.entity.js';
import { Outbox } from '../outbox/outbox.entity.js';
import { Setting } from '../settings/setting.entity.js';

export {
  Consent,
  DataExport,
  EmailLog,
  Invitation,
  Media,
  Outbox,
  PublicVehicle,
  QuartettCard,
  QuartettSet,
  RetentionRun,
  Review,
  Session,
  Setting,
  Upload,
  User,
  Vehicle,
  VisitorRegistration,
  VisitorUpdate,
  VisitorUpdateRecipient,
};

export const entities = [
  User,
  Session,
  Vehicle,
  Media,
  Review,
  Invitation,
  QuartettSet,
  QuartettCard,
  VisitorRegistration,
  EmailLog,
  Outbox,
  PublicVehicle,
  Upload,
  Consent,
  DataExport,
  RetentionRun,
  Setting,
  VisitorUpdate,
  VisitorUpdateRecipient,
];
