/**
 * The visitors' award ('Publikumsliebling'): an admin (or the scheduler at set moments) opens and
 * closes voting per edition. A voter is a mailbox (`mailboxOf`), however its address is spelled. A
 * vote counts once the mailbox is confirmed: by the mailed link (a page with one button), which sets
 * a voter cookie in that browser, or by a signed-in account with a verified address. Each mailbox
 * gives one vote to each of up to three cars and can move them while voting is open. Closing writes
 * the final totals, which stay after retention removes the votes.
 */
import { randomUUID } from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  AWARD_DELETED_CAR,
  AWARD_MESSAGES,
  AWARD_VOTES_PER_VOTER,
  awardStateAt,
  mailboxOf,
  type AwardCorrectionInput,
  publicAwardAt,
  venueDate,
  vehicleDisplayName,
} from '@schlosstreffen/shared';
import type {
  AwardMe,
  AwardPendingVotes,
  AwardVoteResult,
  AwardVoterExport,
} from '@schlosstreffen/shared/api';
import { createLinkToken, verifyLinkToken } from '../crypto/link-token.js';
import { seal } from '../crypto/seal.js';
import { conflict, invalid, notFound } from '../errors.js';
import { assertEditionOpenForChanges } from '../editions/frozen.js';
import type { PendingAudit } from '../pending-audit.js';
import { editionOfYear } from '../editions/editions.js';
import { enqueue } from '../outbox/outbox.js';
import { journalErasure } from '../outbox/erasure-journal.js';
import { Award, AwardVoter, type AwardResult } from '../model/award.entity.js';
import { Edition } from '../model/edition.entity.js';
import {
  carOfStartNumber,
  deleteVote,
  countWaitingVote,
  dropWaitingVotes,
  ensureAwardRow,
  ensureVoterRow,
  insertVote,
  tally,
  visitorConfirmedAt,
  votesOfVoter,
  type TallyRow,
} from './award.queries.js';

/** What a mailed award link does: confirm the address, or open the address's own votes. */
export type AwardLinkPurpose = 'confirm' | 'votes' | 'voter';

export const createAwardToken = (secret: string, id: string, purpose: AwardLinkPurpose) =>
  createLinkToken(secret, 'award', purpose, id);
export const verifyAwardToken = (secret: string, token: unknown, purpose: AwardLinkPurpose) =>
  verifyLinkToken(secret, 'award', purpose, token);

/** A repeated vote from an unconfirmed address re-sends the confirmation at most this often. */
export const AWARD_CONFIRMATION_RESEND_MS = 60 * 60 * 1000;

/** Where voting stands, the same rule for the browser and the server. */
export { awardStateAt, publicAwardAt };

/** The start numbers of the votes that count (none waits for a browser's confirmation). */
const countedNumbers = (votes: { startNumber: number; browser: string | null }[]) =>
  votes.filter((vote) => vote.browser === null).map((vote) => vote.startNumber);

/** The award row of an edition, created on first use. */
async function awardOf(em: EntityManager, edition: Edition, lock = false): Promise<Award> {
  await ensureAwardRow(em, edition.id);
  return em.findOneOrFail(
    Award,
    { edition: edition.id },
    lock ? { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true } : { refresh: true },
  );
}

/** Ranks by votes, equal totals sharing a rank (1, 1, 3). */
export function ranked<T extends { votes: number }>(rows: T[]): (T & { rank: number })[] {
  const sorted = [...rows].sort((a, b) => b.votes - a.votes);
  return sorted.map((row) => ({ ...row, rank: sorted.findIndex((other) => other.votes === row.votes) + 1 }));
}

const resultsOf = (rows: TallyRow[]): AwardResult[] =>
  ranked(rows.filter((row) => row.votes > 0)).map((row) => ({
    vehicleId: row.vehicleId,
    startNumber: row.startNumber,
    name: vehicleDisplayName(row),
    votes: row.votes,
    rank: row.rank,
  }));

/**
 * Who changes an edition's voting: an admin or the command line (`staff`), refused (409, the frozen
 * past's message) once the edition's meeting is over; or the scheduler recording a set moment or the
 * meeting's end, which goes on after it.
 */
type AwardActor = 'staff' | 'scheduler';

/** The edition's award row, locked, for a change by `actor` at `at`. */
async function awardForChange(tx: EntityManager, year: number, at: Date, actor: AwardActor) {
  const edition = await editionOfYear(tx, year);
  if (actor === 'staff') await assertEditionOpenForChanges(tx, edition.id, at, 'staff');
  return { edition, award: await awardOf(tx, edition, true) };
}

/**
 * An admin or the command line opens voting (idempotent); refused once the meeting is over or the
 * voting closed. `record` writes the caller's audit row in the same transaction.
 */
export function openAward(em: EntityManager, year: number, at: Date, record?: (tx: EntityManager) => void) {
  return recordOpening(em, year, at, 'staff', record);
}

async function recordOpening(
  em: EntityManager,
  year: number,
  at: Date,
  actor: AwardActor,
  record?: (tx: EntityManager) => void,
): Promise<Award> {
  return em.transactional(async (tx) => {
    const { award } = await awardForChange(tx, year, at, actor);
    if (award.closedAt) throw conflict(AWARD_MESSAGES.alreadyClosed);
    award.openedAt ??= at;
    record?.(tx);
    return award;
  });
}

/**
 * An admin or the command line closes voting (idempotent); refused once the meeting is over (the
 * scheduler closes it at its end). Returns whether this call closed it.
 */
export function closeAward(em: EntityManager, year: number, at: Date, record?: (tx: EntityManager) => void) {
  return recordClosing(em, year, at, 'staff', at, record);
}

/**
 * Closes voting: the final totals go into `results` and the certificates of the first three are
 * queued, in one transaction.
 */
async function recordClosing(
  em: EntityManager,
  year: number,
  at: Date,
  actor: AwardActor,
  /** When voting opened if that was never recorded (a set moment no tick saw before the end). */
  openedAt: Date,
  record?: (tx: EntityManager) => void,
): Promise<{ award: Award; closedNow: boolean }> {
  return em.transactional(async (tx) => {
    const { edition, award } = await awardForChange(tx, year, at, actor);
    if (award.closedAt) return { award, closedNow: false };
    award.openedAt ??= openedAt;
    award.closedAt = at;
    award.results = resultsOf(await tally(tx, edition.id));
    if (award.results.some((row) => row.rank <= 3))
      enqueue(tx, 'award.certificates', { editionId: edition.id }, { id: randomUUID() });
    record?.(tx);
    return { award, closedNow: true };
  });
}

/** Saves the set moments at which the scheduler opens and closes voting; refused once the meeting is over. */
export async function setAwardMoments(
  em: EntityManager,
  year: number,
  moments: { opensAt: Date | null; closesAt: Date | null },
  at: Date,
  record?: (tx: EntityManager) => void,
): Promise<Award> {
  if (moments.opensAt && moments.closesAt && moments.closesAt <= moments.opensAt)
    throw conflict(AWARD_MESSAGES.moments);
  return em.transactional(async (tx) => {
    const { award } = await awardForChange(tx, year, at, 'staff');
    award.opensAt = moments.opensAt;
    award.closesAt = moments.closesAt;
    record?.(tx);
    return award;
  });
}

/**
 * The scheduler's part: records the opening of voting whose set moment has come, and closes voting
 * whose set moment or meeting end has passed, writing the final totals. Each is recorded at the moment
 * it took effect (votes count from the set opening to the second, see awardStateAt), not at the tick
 * that noticed it. Idempotent. Returns the years opened and closed.
 */
export async function runAwardMoments(
  em: EntityManager,
  asOf: Date,
): Promise<{ opened: number[]; closed: number[] }> {
  const fork = em.fork();
  const awards = await fork.find(Award, { closedAt: null }, { populate: ['edition'] });
  const opened: number[] = [];
  const closed: number[] = [];
  for (const award of awards) {
    const edition = award.edition as unknown as Edition;
    const dueOpening = award.opensAt && award.opensAt <= asOf && award.opensAt < edition.endsAt;
    if (!award.openedAt && !dueOpening) continue;
    const end = award.closesAt && award.closesAt < edition.endsAt ? award.closesAt : edition.endsAt;
    if (asOf >= end) {
      if ((await recordClosing(fork, edition.year, end, 'scheduler', award.opensAt ?? end)).closedNow)
        closed.push(edition.year);
    } else if (!award.openedAt && award.opensAt) {
      await recordOpening(fork, edition.year, award.opensAt, 'scheduler');
      opened.push(edition.year);
    }
  }
  return { opened, closed };
}

/**
 * An admin's correction of the final totals, for a past edition too (the one change its award
 * takes): the car's votes set (0 takes it out of the result), the ranks anew, the correction with its
 * reason kept on the award (the look back names it, without the reason), and the certificates drawn
 * anew (those of cars no longer among the first three deleted). `audit` records the route's row in
 * the same transaction.
 */
export async function correctAwardResult(
  em: EntityManager,
  year: number,
  input: AwardCorrectionInput,
  at: Date,
  audit?: PendingAudit,
): Promise<Award> {
  return em.transactional(async (tx) => {
    const edition = await editionOfYear(tx, year);
    const award = await awardOf(tx, edition, true);
    if (!award.closedAt || !award.results) throw conflict(AWARD_MESSAGES.correctionNoResult);
    const row = award.results.find((result) => result.startNumber === input.startNumber);
    if (!row) throw notFound(AWARD_MESSAGES.correctionUnknownCar);
    if (row.votes === input.votes) throw invalid(AWARD_MESSAGES.correctionNothing);
    const rows = award.results.map((result) => (result === row ? { ...result, votes: input.votes } : result));
    award.results = ranked(rows.filter((result) => result.votes > 0));
    award.corrections = [
      ...(award.corrections ?? []),
      {
        at: at.toISOString(),
        startNumber: row.startNumber,
        from: row.votes,
        to: input.votes,
        reason: input.reason,
      },
    ];
    const winners = new Set(
      award.results.filter((result) => result.rank <= 3).map((result) => result.vehicleId),
    );
    const certificates = { ...award.certificates };
    const gone = Object.keys(certificates).filter((vehicleId) => !winners.has(vehicleId));
    if (gone.length)
      enqueue(tx, 'storage.delete', { keys: gone.map((vehicleId) => certificates[vehicleId]!) });
    for (const vehicleId of gone) delete certificates[vehicleId];
    award.certificates = certificates;
    if (winners.size) enqueue(tx, 'award.certificates', { editionId: edition.id }, { id: randomUUID() });
    audit?.record(tx, {
      details: { startNumber: row.startNumber, votes: { from: row.votes, to: input.votes } },
    });
    return award;
  });
}

/**
 * A deleted account's cars in the final totals: their votes and rank stay, their name goes
 * ('Gelöschtes Fahrzeug'), and so do their certificates, whose keys are returned for deletion.
 */
export async function forgetCarsInAwards(em: EntityManager, vehicleIds: string[]): Promise<string[]> {
  if (!vehicleIds.length) return [];
  const gone = new Set(vehicleIds);
  const keys: string[] = [];
  for (const award of await em.find(Award, { results: { $ne: null } })) {
    if (!award.results?.some((row) => gone.has(row.vehicleId))) continue;
    award.results = award.results.map((row) =>
      gone.has(row.vehicleId) ? { ...row, name: AWARD_DELETED_CAR } : row,
    );
    const certificates = { ...award.certificates };
    for (const id of vehicleIds) {
      if (!certificates[id]) continue;
      keys.push(certificates[id]);
      delete certificates[id];
    }
    award.certificates = certificates;
  }
  return keys;
}

/** Deletes a voter and its votes (out of the count while voting is open), journaled for a restore. */
export async function deleteVoter(em: EntityManager, voterId: string): Promise<boolean> {
  return em.transactional(async (tx) => {
    const gone = (await tx.nativeDelete(AwardVoter, { id: voterId })) > 0;
    if (gone) journalErasure(tx, { kind: 'award-voter', subject: voterId });
    return gone;
  });
}

/** Who is voting in a request: the browser's confirmed voter, a verified account's address, or nobody yet. */
export interface VoterIdentity {
  /** The voter id the browser's cookie names (verified by the route). */
  voterId?: string | null;
  /** A signed-in account with a verified address. */
  account?: { email: string } | null;
  /**
   * The browser, by a hash of its own random cookie: votes waiting for their address's confirmation
   * are kept per browser, and only that browser's count without being picked.
   */
  browser?: string | null;
}

export interface AwardOptions {
  secret: string;
  publicUrl: string;
  onOutbox?: () => void;
}

/** The voting's use cases for visitors. Each owns its transaction. */
export class AwardService {
  constructor(
    private readonly em: EntityManager,
    private readonly options: AwardOptions,
  ) {}

  /** The cookie value naming a confirmed voter. */
  voterCookie(voterId: string): string {
    return createAwardToken(this.options.secret, voterId, 'voter');
  }

  voterOfCookie(value: unknown): string | null {
    return verifyAwardToken(this.options.secret, value, 'voter');
  }

  /** The confirmed voter this request votes as, in the edition (account address first created). */
  private async confirmedVoter(
    em: EntityManager,
    edition: Edition,
    who: VoterIdentity,
    network: string,
    at: Date,
  ): Promise<AwardVoter | null> {
    if (who.voterId) {
      const voter = await em.findOne(AwardVoter, { id: who.voterId, edition: edition.id });
      if (voter?.confirmedAt) return voter;
    }
    if (!who.account) return null;
    const voter = await this.mailboxVoter(em, edition, who.account.email, network, at);
    // Votes waiting on the mailbox stay waiting: typed in by whoever knew the address, they count
    // only when the mailbox holder picks them on the confirm page.
    if (!voter.confirmedAt) Object.assign(voter, { confirmedAt: at, confirmedVia: 'account' });
    return voter;
  }

  /** The state and this browser's votes: read by the car page after it loads. */
  async me(year: number, who: VoterIdentity, at: Date): Promise<AwardMe> {
    const em = this.em.fork();
    const edition = await editionOfYear(em, year);
    const award = await em.findOne(Award, { edition: edition.id });
    let voter: AwardVoter | null = null;
    if (who.voterId) voter = await em.findOne(AwardVoter, { id: who.voterId, edition: edition.id });
    if (!voter?.confirmedAt && who.account)
      voter = await em.findOne(AwardVoter, { edition: edition.id, mailbox: mailboxOf(who.account.email) });
    const confirmed = Boolean(voter?.confirmedAt) || Boolean(who.account);
    return {
      year,
      ...publicAwardAt(award, edition, at),
      confirmed,
      votes: voter?.confirmedAt ? countedNumbers(await votesOfVoter(em, voter.id)) : [],
    };
  }

  /**
   * A vote for the car with the start number. With a confirmed voter (cookie or account) it counts at
   * once. Otherwise the address is needed: the vote waits in this browser for the mailbox's
   * confirmation by the mailed link's button, and the mail goes to the address as typed. Whatever
   * the mailbox's state (new, waiting, confirmed, its three votes counted), the answer is the same
   * and depends only on what this browser did, so nobody learns whether an address voted and nobody
   * takes away another browser's waiting votes. `newAddress` is called before an address is taken
   * from an anonymous request (the per-network limit).
   */
  async vote(
    year: number,
    input: { startNumber: number; email?: string },
    who: VoterIdentity,
    network: string,
    at: Date,
    newAddress: () => Promise<void>,
  ): Promise<AwardVoteResult> {
    let queued = false;
    const result = await this.em.fork().transactional(async (em) => {
      const edition = await editionOfYear(em, year);
      const award = await em.findOne(Award, { edition: edition.id });
      const state = awardStateAt(award, edition, at);
      if (state !== 'open')
        throw conflict(state === 'closed' ? AWARD_MESSAGES.closed : AWARD_MESSAGES.notOpen);
      const car = await carOfStartNumber(em, edition.id, input.startNumber);
      if (!car) throw notFound(AWARD_MESSAGES.unknownCar);
      const confirmed = await this.confirmedVoter(em, edition, who, network, at);
      if (confirmed) {
        await em.flush();
        return this.cast(em, confirmed, car.vehicleId, edition.id, network, at, null);
      }
      if (!input.email) throw conflict(AWARD_MESSAGES.emailNeeded);
      if (!who.browser) throw new Error('an anonymous vote needs its browser');
      await newAddress();
      const voter = await this.mailboxVoter(em, edition, input.email, network, at);
      queued = this.mailLink(em, voter, input.email, at);
      await em.flush();
      return this.cast(em, voter, car.vehicleId, edition.id, network, at, who.browser);
    });
    if (queued) this.options.onOutbox?.();
    return result;
  }

  /** The voter row of the address's mailbox (created unconfirmed), locked. */
  private async mailboxVoter(
    em: EntityManager,
    edition: Edition,
    email: string,
    network: string,
    at: Date,
  ): Promise<AwardVoter> {
    const mailbox = mailboxOf(email);
    await ensureVoterRow(em, { id: randomUUID(), editionId: edition.id, mailbox, network, at });
    return em.findOneOrFail(
      AwardVoter,
      { edition: edition.id, mailbox },
      { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
    );
  }

  /**
   * Queues the confirmation mail to the address as typed unless one went to the mailbox within the
   * hour; returns whether it did.
   */
  private mailLink(em: EntityManager, voter: AwardVoter, to: string, at: Date): boolean {
    const last = voter.confirmationSentAt?.getTime() ?? 0;
    if (at.getTime() - last < AWARD_CONFIRMATION_RESEND_MS) return false;
    voter.confirmationSentAt = at;
    const { publicUrl, secret } = this.options;
    const link = (page: string, purpose: AwardLinkPurpose) =>
      `${publicUrl}/publikumsliebling/${page}?token=${encodeURIComponent(createAwardToken(secret, voter.id, purpose))}`;
    enqueue(em, 'email.send', {
      template: 'award-confirmation',
      to,
      props: {},
      sealed: seal(secret, {
        confirmUrl: link('bestaetigen', 'confirm'),
        votesUrl: link('meine-stimmen', 'votes'),
      }),
    });
    return true;
  }

  /**
   * Writes the vote (idempotent for the same car); a fourth car is refused. With `browser` it waits
   * in that browser for the mailbox's confirmation (three at most per browser); without, it counts
   * (three at most per voter).
   */
  private async cast(
    em: EntityManager,
    voter: AwardVoter,
    vehicleId: string,
    editionId: string,
    network: string,
    at: Date,
    browser: string | null,
  ): Promise<AwardVoteResult> {
    for (let attempt = 0; ; attempt += 1) {
      const written = await insertVote(em, { voterId: voter.id, vehicleId, editionId, network, at, browser });
      const votes = await votesOfVoter(em, voter.id);
      const own = votes.filter((vote) => vote.browser === browser);
      if (browser) {
        // A waiting vote's answer depends on this browser's waiting votes only.
        if (written || own.some((vote) => vote.vehicleId === vehicleId))
          return { message: AWARD_MESSAGES.pending, status: 'pending', votes: [] };
        if (own.length >= AWARD_VOTES_PER_VOTER || attempt >= 2) throw conflict(AWARD_MESSAGES.waitingFull);
        continue;
      }
      if (written || own.some((vote) => vote.vehicleId === vehicleId)) {
        const message = written ? AWARD_MESSAGES.counted : AWARD_MESSAGES.alreadyCounted;
        return { message, status: 'counted', votes: countedNumbers(votes) };
      }
      if (own.length >= AWARD_VOTES_PER_VOTER || attempt >= 2) throw conflict(AWARD_MESSAGES.tooMany);
    }
  }

  /** Takes back the confirmed voter's vote for the car (idempotent) while voting is open. */
  async withdraw(year: number, startNumber: number, who: VoterIdentity, network: string, at: Date) {
    return this.em.fork().transactional(async (em): Promise<AwardVoteResult> => {
      const edition = await editionOfYear(em, year);
      const award = await em.findOne(Award, { edition: edition.id });
      const state = awardStateAt(award, edition, at);
      if (state !== 'open')
        throw conflict(state === 'closed' ? AWARD_MESSAGES.closed : AWARD_MESSAGES.notOpen);
      const car = await carOfStartNumber(em, edition.id, startNumber);
      if (!car) throw notFound(AWARD_MESSAGES.unknownCar);
      const voter = await this.confirmedVoter(em, edition, who, network, at);
      if (!voter) throw conflict(AWARD_MESSAGES.emailNeeded);
      await em.flush();
      await deleteVote(em, voter.id, car.vehicleId);
      const votes = countedNumbers(await votesOfVoter(em, voter.id));
      return { message: AWARD_MESSAGES.withdrawn, status: 'withdrawn', votes };
    });
  }

  /**
   * What the confirm page shows before its button: the mailbox's counted votes, and the cars its
   * waiting votes of every browser name (one entry a car), each marked when it waits in this
   * browser. Null for a bad link or a voter gone. Changes nothing.
   */
  async pendingVotes(token: unknown, browser: string | null): Promise<AwardPendingVotes | null> {
    const id = verifyAwardToken(this.options.secret, token, 'confirm');
    if (!id) return null;
    const em = this.em.fork();
    const voter = await em.findOne(AwardVoter, id, { populate: ['edition'] });
    if (!voter) return null;
    const votes = await votesOfVoter(em, voter.id);
    const counted = votes.filter((vote) => vote.browser === null);
    const waiting = waitingCars(votes);
    return {
      year: (voter.edition as unknown as Edition).year,
      confirmed: Boolean(voter.confirmedAt),
      votes: [
        ...counted.map((vote) => ({
          startNumber: vote.startNumber,
          car: vote.car,
          pending: false,
          thisBrowser: false,
        })),
        ...waiting.map((vote) => ({
          startNumber: vote.startNumber,
          car: vote.car,
          pending: true,
          thisBrowser: browser !== null && vote.browsers.has(browser),
        })),
      ],
    };
  }

  /**
   * The confirm page's button: proves the mailbox (recorded as a visitor sign-up's confirmation when
   * the mailbox has a confirmed one in the edition). Of the votes waiting on it in any browser, the
   * cars whose start numbers the page sends count (by default those waiting in this browser), as many
   * as its three counted votes leave room for: more are refused (409) and nothing changes. The
   * others are dropped, so votes someone else typed in with the address never count by its owner
   * pressing the button. Returns the voter id for the browser's cookie, or null for a bad link.
   */
  async confirm(
    token: unknown,
    at: Date,
    pick: { browser: string | null; startNumbers?: number[] },
  ): Promise<{ voterId: string; result: AwardVoteResult } | null> {
    const id = verifyAwardToken(this.options.secret, token, 'confirm');
    if (!id) return null;
    return this.em.fork().transactional(async (em) => {
      const voter = await em.findOne(AwardVoter, id, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!voter) return null;
      // Once voting is closed no waiting vote may join the count (the final totals stand).
      const edition = await em.findOneOrFail(Edition, voter.edition.id);
      if (awardStateAt(await em.findOne(Award, { edition: edition.id }), edition, at) === 'closed')
        throw conflict(AWARD_MESSAGES.closed);
      const before = await votesOfVoter(em, voter.id);
      const picked = waitingCars(before).filter((vote) =>
        pick.startNumbers
          ? pick.startNumbers.includes(vote.startNumber)
          : pick.browser !== null && vote.browsers.has(pick.browser),
      );
      const free = AWARD_VOTES_PER_VOTER - countedNumbers(before).length;
      if (picked.length > free) throw conflict(AWARD_MESSAGES.pickedTooMany(free));
      for (const vote of picked)
        if (!(await countWaitingVote(em, voter.id, vote.vehicleId)))
          throw conflict(AWARD_MESSAGES.pickedTooMany(free));
      await dropWaitingVotes(em, voter.id);
      if (!voter.confirmedAt) {
        const visitorAt = await visitorConfirmedAt(em, voter.edition.id, voter.mailbox);
        Object.assign(
          voter,
          visitorAt
            ? { confirmedAt: visitorAt, confirmedVia: 'visitor' }
            : { confirmedAt: at, confirmedVia: 'link' },
        );
      }
      await em.flush();
      const votes = countedNumbers(await votesOfVoter(em, voter.id));
      return { voterId: voter.id, result: { message: AWARD_MESSAGES.confirmed, status: 'confirmed', votes } };
    });
  }

  /** The mailed link's 'Meine Stimmen herunterladen'; null for a bad link or a voter gone. */
  async exportVoter(token: unknown): Promise<AwardVoterExport | null> {
    const id = verifyAwardToken(this.options.secret, token, 'votes');
    if (!id) return null;
    const em = this.em.fork();
    const voter = await em.findOne(AwardVoter, id, { populate: ['edition'] });
    return voter ? voterExport(em, voter) : null;
  }

  /** The mailed link's 'Meine Stimmen löschen': the address and its votes go (out of the count while open). */
  async deleteByLink(token: unknown, at: Date): Promise<boolean> {
    const id = verifyAwardToken(this.options.secret, token, 'votes');
    if (!id) return false;
    // A voting closed at its set moment gets its final totals before the votes leave the count.
    await runAwardMoments(this.em, at);
    await deleteVoter(this.em.fork(), id);
    return true;
  }
}

/**
 * The cars the voter's waiting votes name, one entry a car not counted already, with the browsers
 * it waits in, in the order first cast.
 */
function waitingCars(votes: Awaited<ReturnType<typeof votesOfVoter>>) {
  const counted = new Set(countedNumbers(votes));
  const cars = new Map<
    number,
    { startNumber: number; vehicleId: string; car: string; browsers: Set<string> }
  >();
  for (const vote of votes) {
    if (vote.browser === null || counted.has(vote.startNumber)) continue;
    const entry = cars.get(vote.startNumber) ?? { ...vote, browsers: new Set<string>() };
    entry.browsers.add(vote.browser);
    cars.set(vote.startNumber, entry);
  }
  return [...cars.values()];
}

/** A voter's own data, as the export shows it. */
export async function voterExport(em: EntityManager, voter: AwardVoter): Promise<AwardVoterExport> {
  const edition = await em.findOneOrFail(Edition, voter.edition.id);
  return {
    email: voter.mailbox,
    edition: edition.year,
    confirmedAt: voter.confirmedAt?.toISOString() ?? null,
    confirmedVia: voter.confirmedVia ?? null,
    createdAt: voter.createdAt.toISOString(),
    votes: (await votesOfVoter(em, voter.id)).map((vote) => ({
      startNumber: vote.startNumber,
      car: vote.car,
      at: vote.at.toISOString(),
      counted: Boolean(voter.confirmedAt) && vote.browser === null,
    })),
  };
}

/** Every edition's voter data of the address's mailbox (an account's export). */
export async function votesOfAddress(em: EntityManager, email: string): Promise<AwardVoterExport[]> {
  const voters = await em.find(AwardVoter, { mailbox: mailboxOf(email) }, { orderBy: { createdAt: 'asc' } });
  return Promise.all(voters.map((voter) => voterExport(em, voter)));
}

/** The venue dates of the meeting, for 'confirmed on a day of the meeting'. */
export const meetingDays = (edition: Pick<Edition, 'startsAt' | 'endsAt'>) => ({
  from: venueDate(edition.startsAt),
  to: venueDate(edition.endsAt),
});
