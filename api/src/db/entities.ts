import { Session } from '../modules/auth/session.entity.js';
import { EmailLog } from '../modules/emails/email-log.entity.js';
import { Invitation } from '../modules/invitations/invitation.entity.js';
import { Media } from '../modules/media/media.entity.js';
import { PublicVehicle } from '../modules/public-vehicles/public-vehicle.entity.js';
import { QuartettCard } from '../modules/quartett/quartett-card.entity.js';
import { QuartettSet } from '../modules/quartett/quartett-set.entity.js';
import { Review } from '../modules/status-log/review.entity.js';
import { User } from '../modules/users/user.entity.js';
import { Vehicle } from '../modules/vehicles/vehicle.entity.js';
import { VisitorRegistration } from '../modules/visitors/visitor-registration.entity.js';
import { Outbox } from '../outbox/outbox.entity.js';

export {
  EmailLog,
  Invitation,
  Media,
  Outbox,
  PublicVehicle,
  QuartettCard,
  QuartettSet,
  Review,
  Session,
  User,
  Vehicle,
  VisitorRegistration,
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
];
