import * as v from 'valibot';
import { fieldObject } from './schemas/issues.js';

/**
 * The second factor of staff accounts (reviewers and admins): a time-based one-time password
 * (TOTP, RFC 6238) from any authenticator app, and ten single-use recovery codes. The parameters
 * are the ones every authenticator app reads from the key's QR code.
 */
export const SECOND_FACTOR = {
  issuer: 'Schlosstreffen',
  algorithm: 'SHA1',
  digits: 6,
  periodSeconds: 30,
  /** Codes of the step before and after the server's own are taken too (clocks drift). */
  window: 1,
  recoveryCodes: 10,
  /** How long after the password the second factor may follow (then the password is asked again). */
  pendingMinutes: 10,
} as const;

/** What a sign-in with the password still needs: the key set up first, or a code. */
export const SECOND_FACTOR_STEPS = ['setup', 'code'] as const;
export type SecondFactorStep = (typeof SECOND_FACTOR_STEPS)[number];

/** Characters of a recovery code: no 0/O and 1/I, which are read wrongly from paper. */
export const RECOVERY_CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
/** Characters of a recovery code (shown as two groups of five: 'ABCDE-FGHJK'). */
export const RECOVERY_CODE_LENGTH = 10;

export const SECOND_FACTOR_MESSAGES = {
  /** The answer of a staff password sign-in while the second factor is outstanding. */
  setupRequired: 'Richte jetzt deinen zweiten Faktor ein, um die Anmeldung abzuschließen.',
  codeRequired: 'Bitte bestätige deine Anmeldung mit dem Code aus deiner Authenticator-App.',
  /** 401 of every other route for a session whose second factor is outstanding. */
  pending: 'Bitte schließe deine Anmeldung mit dem zweiten Faktor ab.',
  notPending: 'Es wartet keine Anmeldung auf den zweiten Faktor. Bitte melde dich an.',
  expired: 'Die Anmeldung ist abgelaufen. Bitte melde dich erneut mit deinem Passwort an.',
  alreadySetUp:
    'Der zweite Faktor ist schon eingerichtet. Bitte gib den Code aus deiner Authenticator-App ein.',
  notSetUp: 'Der zweite Faktor ist noch nicht eingerichtet. Bitte richte ihn zuerst ein.',
  setupKeyMissing: 'Bitte rufe zuerst den Schlüssel für deine Authenticator-App ab.',
  codeFormat: 'Bitte gib den 6-stelligen Code aus deiner Authenticator-App ein.',
  wrongCode:
    'Der Code ist ungültig oder wurde schon verwendet. Bitte gib den aktuellen Code aus deiner Authenticator-App ein.',
  recoveryCodeFormat: 'Bitte gib einen Wiederherstellungscode ein (z. B. ABCDE-FGHJK).',
  wrongRecoveryCode: 'Der Wiederherstellungscode ist ungültig oder wurde schon verwendet.',
  codeOrRecoveryCode: 'Bitte gib einen Code oder einen Wiederherstellungscode ein.',
  activated: 'Zweiter Faktor eingerichtet',
} as const;

/** Team page (/admin/team): who holds a staff role, and the admin's changes to it. */
export const TEAM_ROLES = ['reviewer', 'admin'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];
export const TEAM_ROLE_LABELS: Record<TeamRole, string> = { reviewer: 'Prüfer', admin: 'Admin' };

export const TEAM_MESSAGES = {
  email: 'Bitte gib die E-Mail-Adresse eines bestehenden Kontos an.',
  role: 'Bitte wähle eine Rolle: Prüfer oder Admin.',
  unknownAccount: 'Es gibt kein Konto mit dieser E-Mail-Adresse.',
  unconfirmed:
    'Diese E-Mail-Adresse ist noch nicht bestätigt. Eine Rolle gibt es erst, wenn die Person den Link in der Bestätigungsmail geöffnet hat.',
  notStaff: 'Dieses Konto gehört nicht zum Team.',
  ownAdminRole: 'Die eigene Admin-Rolle kann nur ein anderer Admin entziehen.',
  granted: (name: string, role: TeamRole) => `${name} ist jetzt ${TEAM_ROLE_LABELS[role]}.`,
  unchanged: (name: string, role: TeamRole) => `${name} ist bereits ${TEAM_ROLE_LABELS[role]}.`,
  revoked: (name: string) => `${name} gehört nicht mehr zum Team.`,
  secondFactorReset: (name: string) =>
    `Der zweite Faktor von ${name} ist zurückgesetzt. Bei der nächsten Anmeldung wird er neu eingerichtet.`,
} as const;

/** The key as the setup screen shows it: groups of four characters. */
export function groupKey(base32: string): string {
  return (
    base32
      .replace(/\s+/g, '')
      .match(/.{1,4}/g)
      ?.join(' ') ?? ''
  );
}

/** A typed recovery code as stored: upper case, without spaces and dashes. */
export function normalizeRecoveryCode(code: string): string {
  return code.toUpperCase().replace(/[\s-]+/g, '');
}

/** A recovery code as shown: 'ABCDE-FGHJK'. */
export function formatRecoveryCode(code: string): string {
  const plain = normalizeRecoveryCode(code);
  return `${plain.slice(0, 5)}-${plain.slice(5)}`;
}

/** Six digits; spaces typed between them are dropped. */
const totpCode = v.pipe(
  v.string(SECOND_FACTOR_MESSAGES.codeFormat),
  v.transform((code) => code.replace(/\s+/g, '')),
  v.regex(/^\d{6}$/, SECOND_FACTOR_MESSAGES.codeFormat),
);

const recoveryCode = v.pipe(
  v.string(SECOND_FACTOR_MESSAGES.recoveryCodeFormat),
  v.maxLength(40, SECOND_FACTOR_MESSAGES.recoveryCodeFormat),
  v.transform(normalizeRecoveryCode),
  v.length(RECOVERY_CODE_LENGTH, SECOND_FACTOR_MESSAGES.recoveryCodeFormat),
);

/** POST /api/auth/second-factor/setup: the first code from the newly added key. */
export const SecondFactorCodeSchema = fieldObject({ code: totpCode });
export type SecondFactorCodeInput = v.InferOutput<typeof SecondFactorCodeSchema>;

/** POST /api/auth/second-factor/verify: a code from the app, or one of the recovery codes. */
export const SecondFactorVerifySchema = v.pipe(
  fieldObject({ code: v.optional(totpCode), recoveryCode: v.optional(recoveryCode) }),
  v.check(
    (input) => (input.code === undefined) !== (input.recoveryCode === undefined),
    SECOND_FACTOR_MESSAGES.codeOrRecoveryCode,
  ),
);
export type SecondFactorVerifyInput = v.InferOutput<typeof SecondFactorVerifySchema>;

/** The recovery code form of the sign-in's code screen. */
export const RecoveryCodeFormSchema = fieldObject({ recoveryCode });

/** POST /api/admin/team: give an existing account with a confirmed address a staff role. */
export const TeamGrantSchema = fieldObject({
  email: v.pipe(
    v.string(TEAM_MESSAGES.email),
    v.trim(),
    v.email(TEAM_MESSAGES.email),
    v.maxLength(254, TEAM_MESSAGES.email),
    v.toLowerCase(),
  ),
  role: v.picklist(TEAM_ROLES, TEAM_MESSAGES.role),
});
export type TeamGrantInput = v.InferOutput<typeof TeamGrantSchema>;
