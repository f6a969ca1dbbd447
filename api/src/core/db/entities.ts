import { AuditLog } from '../model/audit-log.entity.js';
import { Award, AwardVote, AwardVoter } from '../model/award.entity.js';
import { CheckInScan } from '../model/check-in-scan.entity.js';
import { Consent } from '../model/consent.entity.js';
import { DataExport } from '../model/data-export.entity.js';
import { Edition } from '../model/edition.entity.js';
import { Session } from '../model/session.entity.js';
import { Upload } from '../model/upload.entity.js';
import { RetentionRun } from '../model/retention-run.entity.js';
import { EmailLog } from '../model/email-log.entity.js';
import { ErasureJournal } from '../model/erasure-journal.entity.js';
import { MailBounce } from '../model/mail-bounce.entity.js';
import { Invitation } from '../model/invitation.entity.js';
import { Media } from '../model/media.entity.js';
import { PublicVehicle } from '../model/public-vehicle.entity.js';
import { QuartettCard } from '../model/quartett-card.entity.js';
import { QuartettSet } from '../model/quartett-set.entity.js';
import { Review } from '../model/review.entity.js';
import { SignExport } from '../model/sign-export.entity.js';
import {
  ReviewAssignment,
  ReviewCategory,
  ReviewConflict,
  ReviewExclusion,
} from '../model/review-assignment.entity.js';
import { User } from '../model/user.entity.js';
import { Vehicle } from '../model/vehicle.entity.js';
import { VisitorRegistration } from '../model/visitor-registration.entity.js';
import { VisitorTicket, VisitorTicketScan } from '../model/visitor-ticket.entity.js';
import { VisitorUpdate, VisitorUpdateRecipient } from '../model/visitor-update.entity.js';
import { Outbox } from '../model/outbox.entity.js';
import { PublicText } from '../model/public-text.entity.js';
import { MailTemplate } from '../model/mail-template.entity.js';
import { Setting } from '../model/setting.entity.js';
import {
  Jury,
  JuryClass,
  JuryClassJudge,
  JuryInvite,
  JuryJudge,
  JuryRecusal,
  JuryScore,
} from '../model/jury.entity.js';
import {
  BankEntry,
  BankImport,
  Payment,
  PaymentBooking,
  PaymentRefund,
  RefundExport,
} from '../model/payment.entity.js';

export {
  AuditLog,
  BankEntry,
  BankImport,
  Payment,
  PaymentBooking,
  PaymentRefund,
  RefundExport,
  Jury,
  JuryClass,
  JuryClassJudge,
  JuryInvite,
  JuryJudge,
  JuryRecusal,
  JuryScore,
  PublicText,
  MailTemplate,
  CheckInScan,
  Consent,
  DataExport,
  Edition,
  EmailLog,
  ErasureJournal,
  Invitation,
  MailBounce,
  Media,
  Outbox,
  PublicVehicle,
  QuartettCard,
  QuartettSet,
  RetentionRun,
  Review,
  ReviewAssignment,
  ReviewCategory,
  ReviewConflict,
  ReviewExclusion,
  Session,
  Setting,
  SignExport,
  Upload,
  User,
  Vehicle,
  VisitorRegistration,
  VisitorTicket,
  VisitorTicketScan,
  VisitorUpdate,
  VisitorUpdateRecipient,
};

export const entities = [
  User,
  Payment,
  BankImport,
  BankEntry,
  PaymentBooking,
  RefundExport,
  PaymentRefund,
  Jury,
  JuryClass,
  JuryClassJudge,
  JuryInvite,
  JuryJudge,
  JuryRecusal,
  JuryScore,
  Session,
  Vehicle,
  Media,
  Review,
  Invitation,
  QuartettSet,
  QuartettCard,
  SignExport,
  VisitorRegistration,
  VisitorTicket,
  VisitorTicketScan,
  EmailLog,
  MailBounce,
  Outbox,
  PublicVehicle,
  Upload,
  Consent,
  DataExport,
  RetentionRun,
  Setting,
  VisitorUpdate,
  VisitorUpdateRecipient,
  CheckInScan,
  Edition,
  AuditLog,
  ReviewCategory,
  ReviewAssignment,
  ReviewConflict,
  ReviewExclusion,
  PublicText,
  MailTemplate,
  Award,
  AwardVoter,
  AwardVote,
  ErasureJournal,
];
