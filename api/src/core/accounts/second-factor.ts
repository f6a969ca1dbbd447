import { createHash, randomInt } from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  formatRecoveryCode,
  groupKey,
  isStaffRole,
  normalizeRecoveryCode,
  RECOVERY_CODE_ALPHABET,
  RECOVERY_CODE_LENGTH,
  SECOND_FACTOR,
  SECOND_FACTOR_MESSAGES,
  type Role,
} from '@schlosstreffen/shared';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import { recordAudit, type AuditActor } from '../audit/audit.js';
import { seal, unseal } from '../crypto/seal.js';
import { conflict } from '../errors.js';
import { User } from '../model/user.entity.js';
import { claimSecondFactorStep, takeRecoveryCode } from './accounts.queries.js';
import { destroyUserSessions } from './sessions.js';

/**
 * The second factor of staff accounts: a TOTP key (RFC 6238: SHA-1, 6 digits, 30 s, the parameters
 * every authenticator app reads) and ten single-use recovery codes. The key is sealed at rest
 * (AES-GCM, a key derived from SESSION_SECRET for this purpose alone); recovery codes are stored as
 * SHA-256 hashes. A code's time step is recorded when it is taken, so no code counts twice.
 */

/** Whether an account of this role signs in with a second factor while the setting is on. */
export const needsSecondFactor = (role: Role | string, required: boolean): boolean =>
  required && isStaffRole(role);

const SEAL_PURPOSE = 'second-factor-secret';

/** A new random key (160 bits, as RFC 4226 recommends), in base32. */
export function newSecondFactorKey(): string {
  return new Secret({ size: 20 }).base32;
}

/** A key sealed for the session or the account's row; only `openSecondFactorKey` reads it. */
export const sealSecondFactorKey = (sessionSecret: string, key: string): string =>
  seal(sessionSecret, key, SEAL_PURPOSE);

export const openSecondFactorKey = (sessionSecret: string, box: string): string =>
  unseal<string>(sessionSecret, box, SEAL_PURPOSE);

function totpOf(key: string, account: string): TOTP {
  return new TOTP({
    issuer: SECOND_FACTOR.issuer,
    label: account,
    algorithm: SECOND_FACTOR.algorithm,
    digits: SECOND_FACTOR.digits,
    period: SECOND_FACTOR.periodSeconds,
    secret: Secret.fromBase32(key),
  });
}

/** What the setup screen shows: the key as QR code (SVG data URL) and as text. */
export async function secondFactorSetupView(key: string, account: string) {
  const otpauthUri = totpOf(key, account).toString();
  const svg = await QRCode.toString(otpauthUri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return {
    otpauthUri,
    key: groupKey(key),
    qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`,
    issuer: SECOND_FACTOR.issuer,
    account,
  };
}

/** The time step a code matches at `at` (within the window), or null when it matches none. */
function matchingStep(key: string, code: string, at: Date): number | null {
  const totp = totpOf(key, '');
  const delta = totp.validate({ token: code, timestamp: at.getTime(), window: SECOND_FACTOR.window });
  return delta === null ? null : totp.counter({ timestamp: at.getTime() }) + delta;
}

const hashRecoveryCode = (code: string) =>
  createHash('sha256').update(normalizeRecoveryCode(code)).digest('hex');

/** Ten new recovery codes ('ABCDE-FGHJK', 50 random bits each). */
function newRecoveryCodes(): string[] {
  return Array.from({ length: SECOND_FACTOR.recoveryCodes }, () =>
    formatRecoveryCode(
      Array.from(
        { length: RECOVERY_CODE_LENGTH },
        () => RECOVERY_CODE_ALPHABET[randomInt(RECOVERY_CODE_ALPHABET.length)],
      ).join(''),
    ),
  );
}

/**
 * Sets the second factor up with the key the setup screen showed, when `code` is a current code of
 * it: the key is stored (sealed), the code's step taken, and ten recovery codes made, returned
 * this once (only their hashes are kept). Null when the code is wrong; 409 when the account set
 * one up meanwhile (another session).
 */
export async function activateSecondFactor(
  em: EntityManager,
  options: { userId: string; key: string; code: string; at: Date; sessionSecret: string },
): Promise<string[] | null> {
  const step = matchingStep(options.key, options.code, options.at);
  if (step === null) return null;
  return em.fork().transactional(async (tx) => {
    const user = await tx.findOneOrFail(User, options.userId, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (user.secondFactorEnabledAt) throw conflict(SECOND_FACTOR_MESSAGES.alreadySetUp);
    const codes = newRecoveryCodes();
    tx.assign(user, {
      secondFactorSecret: sealSecondFactorKey(options.sessionSecret, options.key),
      secondFactorEnabledAt: options.at,
      secondFactorLastStep: step,
      secondFactorRecoveryCodes: codes.map(hashRecoveryCode),
    });
    recordAudit(tx, {
      actorId: user.id,
      actorRole: user.role,
      action: 'auth.second_factor_setup',
      target: user.id,
    });
    return codes;
  });
}

/**
 * Checks a code from the account's authenticator app at `at`: true when it matches the key within
 * the window and its step is later than the last one taken (which it then becomes).
 */
export async function verifySecondFactorCode(
  em: EntityManager,
  options: { userId: string; code: string; at: Date; sessionSecret: string },
): Promise<boolean> {
  const user = await em.fork().findOne(
    User,
    { id: options.userId, secondFactorEnabledAt: { $ne: null } },
    {
      populate: ['secondFactorSecret'],
    },
  );
  if (!user?.secondFactorSecret) return false;
  const step = matchingStep(
    openSecondFactorKey(options.sessionSecret, user.secondFactorSecret),
    options.code,
    options.at,
  );
  return step !== null && claimSecondFactorStep(em.fork(), user.id, step);
}

/** Uses up one of the account's recovery codes; the codes left, or null when it is not one of them. */
export function spendRecoveryCode(em: EntityManager, userId: string, code: string): Promise<number | null> {
  return takeRecoveryCode(em.fork(), userId, hashRecoveryCode(code));
}

/** Recovery codes the account has not used. */
export async function recoveryCodesLeft(em: EntityManager, userId: string): Promise<number> {
  const user = await em.fork().findOneOrFail(User, userId, { populate: ['secondFactorRecoveryCodes'] });
  return user.secondFactorRecoveryCodes?.length ?? 0;
}

/** No second factor: the next staff sign-in sets one up (in the caller's unit of work). */
export function clearSecondFactor(em: EntityManager, user: User): void {
  em.assign(user, {
    secondFactorSecret: null,
    secondFactorEnabledAt: null,
    secondFactorLastStep: null,
    secondFactorRecoveryCodes: null,
  });
}

/**
 * Resets an account's second factor (a lost device): key and recovery codes go, every session of
 * the account ends, and its next sign-in sets a new one up. One audit row. Undefined when no
 * account has the email.
 */
export async function resetSecondFactor(
  em: EntityManager,
  email: string,
  by: { actor: AuditActor; ip?: string | null },
): Promise<User | undefined> {
  return em.fork().transactional(async (tx) => {
    const user = await tx.findOne(
      User,
      { email: email.trim().toLowerCase() },
      { lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    if (!user) return undefined;
    const hadOne = user.secondFactorEnabledAt !== null && user.secondFactorEnabledAt !== undefined;
    clearSecondFactor(tx, user);
    await destroyUserSessions(tx, user.id);
    recordAudit(tx, {
      ...by.actor,
      action: 'auth.second_factor_reset',
      target: user.id,
      details: { wasSetUp: hadOne },
      ip: by.ip ?? null,
    });
    return user;
  });
}
