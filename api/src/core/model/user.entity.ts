import { defineEntity, p } from '@mikro-orm/core';
import { ROLES } from '@schlosstreffen/shared';
import { createdAt, updatedAt, uuidPk } from './columns.js';

const UserSchema = defineEntity({
  name: 'User',
  tableName: 'users',
  properties: {
    id: uuidPk(),
    /** Stored lower-cased; unique. */
    email: p.string().length(254).unique(),
    passwordHash: p.string().hidden().lazy(),
    firstName: p.string().length(100),
    lastName: p.string().length(100),
    profileImageUrl: p.string().nullable(),
    phone: p.string().length(40).nullable(),
    instagramHandle: p.string().length(100).nullable(),
    role: p.enum(ROLES).default('user'),
    consentMedia: p.boolean().default(false),
    consentQuartett: p.boolean().default(false),
    consentContact: p.boolean().default(false),
    /** SHA-256 of the current reset token; the token itself is never stored. */
    resetToken: p.string().length(64).nullable().hidden(),
    resetTokenExpiry: p.datetime().nullable().hidden(),
    /** Set once a link mailed to `email` was opened (or an operator confirmed it): only then is the address trusted. */
    emailVerified: p.boolean().default(false),
    /** SHA-256 of the link token that confirms `email`, and its expiry. */
    emailConfirmToken: p.string().length(64).nullable().hidden(),
    emailConfirmExpiry: p.datetime().nullable().hidden(),
    /** A new address waiting for its confirmation link; the SHA-256 of that link's token. */
    pendingEmail: p.string().length(254).nullable(),
    emailChangeToken: p.string().length(64).nullable().hidden(),
    emailChangeExpiry: p.datetime().nullable().hidden(),
    /** SHA-256 of the link token in the notice to the old address that cancels the pending change. */
    emailChangeCancelToken: p.string().length(64).nullable().hidden(),
    /**
     * The staff's second factor: the TOTP key, sealed (crypto/seal.ts, purpose 'second-factor-secret');
     * set when the setup screen first shows it, in use from `secondFactorEnabledAt` on.
     */
    secondFactorSecret: p.text().nullable().hidden().lazy(),
    secondFactorEnabledAt: p.datetime().nullable(),
    /** The time step of the last code taken: a code of that step or an earlier one is refused. */
    secondFactorLastStep: p.integer().nullable().hidden(),
    /** SHA-256 hashes of the recovery codes not used yet; a used one is removed. */
    secondFactorRecoveryCodes: p.array().nullable().hidden().lazy(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
});

export class User extends UserSchema.class {}
UserSchema.setClass(User);
