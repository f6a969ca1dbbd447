import type { SecondFactorStep, TeamRole } from '../second-factor.js';
import type { CurrentUser } from './account.js';

/**
 * POST /api/auth/login of a staff account while STAFF_SECOND_FACTOR is on: the password was right,
 * the sign-in waits for the second factor (`setup` the first time, else `code`). GET /api/auth/user
 * answers 401 with the same `secondFactor` meanwhile.
 */
export interface SecondFactorChallenge {
  secondFactor: SecondFactorStep;
  message: string;
}

/** POST /api/auth/login: the signed-in user, or the second factor still to come. */
export type LoginAnswer = CurrentUser | SecondFactorChallenge;

/** GET /api/auth/second-factor/setup: the key to add to an authenticator app. */
export interface SecondFactorSetup {
  /** `otpauth://totp/…`, what the QR code holds. */
  otpauthUri: string;
  /** The key in base32, in groups of four, for typing it in. */
  key: string;
  /** The QR code as an SVG data URL. */
  qrCode: string;
  issuer: string;
  /** The account the app shows the codes under (the email). */
  account: string;
}

/** POST /api/auth/second-factor/setup: signed in; the recovery codes, shown this once. */
export interface SecondFactorActivated {
  user: CurrentUser;
  recoveryCodes: string[];
  message: string;
}

/** POST /api/auth/second-factor/verify: signed in. */
export interface SecondFactorVerified {
  user: CurrentUser;
  /** Recovery codes not used yet. */
  recoveryCodesLeft: number;
}

/** A staff account as the Team page lists it. */
export interface TeamMember {
  id: string;
  firstName: string | null;
  lastName: string | null;
  email: string;
  role: TeamRole;
  /** When the second factor was set up; null while it is not. */
  secondFactorSince: string | null;
  /** Recovery codes not used yet (0 while none is set up). */
  recoveryCodesLeft: number;
}

/** GET /api/admin/team */
export interface TeamList {
  members: TeamMember[];
  /** Whether staff sign in with a second factor here (STAFF_SECOND_FACTOR). */
  secondFactorRequired: boolean;
}

/** The answer of a change on the Team page: the list as it is now and what happened. */
export interface TeamChange extends TeamList {
  message: string;
}
