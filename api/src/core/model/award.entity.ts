import { defineEntity, p } from '@mikro-orm/core';
import { createdAt, uuidPk } from './columns.js';
import { Edition } from './edition.entity.js';
import { Vehicle } from './vehicle.entity.js';

/** One car's final total, written when voting closes and kept after the votes are gone. */
export interface AwardResult {
  vehicleId: string;
  startNumber: number;
  name: string;
  votes: number;
  /** 1 for the most votes; equal totals share a rank. */
  rank: number;
}

/** An admin's correction of the final totals: a car's votes from and to, when, and why. */
export interface AwardCorrection {
  at: string;
  startNumber: number;
  from: number;
  to: number;
  reason: string;
}

/** How an address was proven: the mailed link, a confirmed visitor sign-up (with the link), an account. */
export const VOTER_CONFIRMATIONS = ['link', 'visitor', 'account'] as const;
export type VoterConfirmation = (typeof VOTER_CONFIRMATIONS)[number];

const AwardSchema = defineEntity({
  name: 'Award',
  tableName: 'award',
  properties: {
    edition: () => p.oneToOne(Edition).owner().primary().deleteRule('cascade'),
    /** Set moments: the scheduler opens and closes voting then. */
    opensAt: p.datetime().nullable(),
    closesAt: p.datetime().nullable(),
    /** What happened: when voting was opened and closed. */
    openedAt: p.datetime().nullable(),
    closedAt: p.datetime().nullable(),
    results: p.json<AwardResult[]>().nullable(),
    /** Certificate PDF keys by vehicle id, once rendered. */
    certificates: p.json<Record<string, string>>().nullable(),
    /** Admins' corrections of the final totals, oldest first. */
    corrections: p.json<AwardCorrection[]>().nullable(),
    createdAt: createdAt(),
  },
});
export class Award extends AwardSchema.class {}
AwardSchema.setClass(Award);

const AwardVoterSchema = defineEntity({
  name: 'AwardVoter',
  tableName: 'award_voter',
  uniques: [{ properties: ['edition', 'mailbox'] }],
  properties: {
    id: uuidPk(),
    edition: () => p.manyToOne(Edition).deleteRule('cascade'),
    /** The mailbox the address reaches (`mailboxOf`): one voter however the address is spelled. */
    mailbox: p.string().length(254),
    /** Null until the address is proven: until then its votes do not count. */
    confirmedAt: p.datetime().nullable(),
    confirmedVia: p.enum(VOTER_CONFIRMATIONS).nullable(),
    /** The IPv4 address or IPv6 /64 the address was first given from. */
    network: p.string().length(64),
    confirmationSentAt: p.datetime().nullable(),
    createdAt: createdAt(),
  },
});
export class AwardVoter extends AwardVoterSchema.class {}
AwardVoterSchema.setClass(AwardVoter);

const AwardVoteSchema = defineEntity({
  name: 'AwardVote',
  tableName: 'award_vote',
  uniques: [{ properties: ['voter', 'browser', 'slot'] }],
  indexes: [{ properties: ['edition', 'vehicle'] }],
  properties: {
    voter: () => p.manyToOne(AwardVoter).primary().deleteRule('cascade'),
    /**
     * A vote waiting for its address's confirmation: a hash of the casting browser's cookie; '' for
     * a vote that counts. Waiting votes are kept per browser, so none gives way to another browser's.
     */
    browser: p.string().length(64).primary().default(''),
    vehicle: () => p.manyToOne(Vehicle).primary().deleteRule('cascade'),
    edition: () => p.manyToOne(Edition).deleteRule('cascade'),
    /**
     * 1–3: the unique (voter, browser, slot) holds every voter to three counted votes, and to three
     * waiting ones per browser.
     */
    slot: p.smallint(),
    network: p.string().length(64),
    createdAt: createdAt(),
  },
});
export class AwardVote extends AwardVoteSchema.class {}
AwardVoteSchema.setClass(AwardVote);
