import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  CONSENTS,
  missingSubmissionConsents,
  PRIVACY_MESSAGES,
  SUBMISSION_CONSENT_KINDS,
  type ConsentKind,
  type SubmissionConsents,
} from '@schlosstreffen/shared';
import { conflict, invalid, notFound } from '../errors.js';
import { assertEditionOpenForChanges } from '../editions/frozen.js';
import { refreshPublicVehicles } from '../public-list/public-vehicle.projection.js';
import { redrawCertificatesOf } from '../award/certificates.js';
import { redrawJuryCertificatesOf } from '../jury/certificates.js';
import { recordConsentWithdrawal } from '../status-log/status-log.js';
import { journalErasure } from '../outbox/erasure-journal.js';
import { Vehicle } from '../model/vehicle.entity.js';
import { Consent } from '../model/consent.entity.js';
import { User } from '../model/user.entity.js';

/**
 * The consents of an application: recorded when the owner submits it, as the request sent them,
 * withdrawable at any time. What a withdrawal does, per kind: media, the vehicle leaves the public
 * list; quartett, it leaves future print exports; contact, no more mails about the application.
 */

/** The account flag of each submission kind: whether the person has a consent of it that stands. */
const ACCOUNT_FLAG: Partial<Record<ConsentKind, 'consentMedia' | 'consentQuartett' | 'consentContact'>> = {
  media: 'consentMedia',
  quartett: 'consentQuartett',
  contact: 'consentContact',
};

/**
 * The owner's submission of `vehicle`: refused (400, naming each consent not ticked) unless `ticks`
 * carries all three as `true`; then each kind sent is recorded with its wording and version, in the
 * caller's transaction. A kind whose consent still stands for this application (a resubmission after
 * withdrawing the application) is not recorded again; one withdrawn is given anew. The account's
 * flags follow.
 */
export async function recordSubmissionConsents(
  em: EntityManager,
  user: User,
  vehicle: Vehicle,
  ticks: SubmissionConsents,
  at = new Date(),
): Promise<void> {
  const missing = missingSubmissionConsents(ticks);
  if (missing.length) throw invalid(missing[0]!.message, missing);
  const sent = SUBMISSION_CONSENT_KINDS.filter((kind) => ticks[CONSENTS[kind].field] === true);
  const standing = new Set(
    (await em.find(Consent, { vehicle: vehicle.id, kind: { $in: sent }, withdrawnAt: null })).map(
      (consent) => consent.kind,
    ),
  );
  for (const kind of sent) {
    if (standing.has(kind)) continue;
    em.create(Consent, {
      user,
      vehicle,
      kind,
      version: CONSENTS[kind].version,
      wording: CONSENTS[kind].text,
      source: 'application',
      grantedAt: at,
    });
  }
  // Read at once by what the submission causes (its mail asks whether contact stands).
  await em.flush();
  await em.nativeUpdate(
    User,
    { id: user.id },
    Object.fromEntries(sent.map((kind) => [ACCOUNT_FLAG[kind]!, true])),
  );
}

/**
 * The owner shows their Instagram name on the page of their confirmed car (of an edition not yet
 * over): recorded with its wording and version (once; a standing one is kept), and the car's public
 * row brought up to date so its page is rendered again.
 */
export async function giveInstagramConsent(
  em: EntityManager,
  user: User,
  vehicleId: string,
  at: Date,
): Promise<Consent> {
  return em.transactional(async (tx) => {
    const vehicle = await tx.findOne(Vehicle, { id: vehicleId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!vehicle || vehicle.user.id !== user.id) throw notFound(PRIVACY_MESSAGES.consentNotFound);
    if (vehicle.status !== 'confirmed') throw conflict(PRIVACY_MESSAGES.instagramNotConfirmed);
    // A past meeting's page shows the car as recorded; withdrawing stays possible.
    await assertEditionOpenForChanges(tx, vehicle.edition.id, at, 'owner');
    const standing = await tx.findOne(Consent, { vehicle: vehicle.id, kind: 'instagram', withdrawnAt: null });
    if (standing) return standing;
    const consent = tx.create(Consent, {
      user: tx.getReference(User, user.id),
      vehicle,
      kind: 'instagram',
      version: CONSENTS.instagram.version,
      wording: CONSENTS.instagram.text,
      source: 'dashboard',
      grantedAt: at,
    });
    await tx.flush();
    await refreshPublicVehicles(tx, [vehicle.id]);
    return consent;
  });
}

export function listConsents(
  em: EntityManager,
  where: { user?: string; vehicle?: string },
): Promise<Consent[]> {
  return em.find(Consent, where, { populate: ['vehicle'], orderBy: { grantedAt: 'desc', kind: 'asc' } });
}

/**
 * Withdraws one of the user's consents: noted on the consent, written to the vehicle's status log,
 * carried out at once (the public list is brought up to date in the same transaction) and journaled
 * as an erasure, which a restore makes again.
 */
export async function withdrawConsent(em: EntityManager, user: User, consentId: string): Promise<Consent> {
  return em.transactional(async (tx) => {
    const consent = await tx.findOne(
      Consent,
      { id: consentId, user: user.id },
      { lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    if (!consent) throw notFound(PRIVACY_MESSAGES.consentNotFound);
    if (consent.withdrawnAt) throw conflict(PRIVACY_MESSAGES.consentAlreadyWithdrawn);
    await withdrawLocked(tx, consent, user.id);
    await tx.populate(consent, ['vehicle']);
    return consent;
  });
}

/** A restore's replay of a withdrawal journaled after its backup; nothing for a consent gone or withdrawn. */
export async function replayConsentWithdrawal(em: EntityManager, consentId: string): Promise<boolean> {
  return em.fork().transactional(async (tx) => {
    const consent = await tx.findOne(Consent, { id: consentId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!consent || consent.withdrawnAt) return false;
    await withdrawLocked(tx, consent, consent.user.id);
    return true;
  });
}

async function withdrawLocked(tx: EntityManager, consent: Consent, userId: string): Promise<void> {
  consent.withdrawnAt = new Date();
  if (consent.vehicle) {
    const vehicle = await tx.findOneOrFail(Vehicle, consent.vehicle.id, {
      lockMode: LockMode.PESSIMISTIC_WRITE,
    });
    const owner = await tx.findOneOrFail(User, userId);
    recordConsentWithdrawal(
      tx,
      vehicle,
      owner,
      PRIVACY_MESSAGES.consentWithdrawnLog(CONSENTS[consent.kind].label),
    );
    await tx.flush();
    await refreshPublicVehicles(tx, [vehicle.id]);
    // Certificates of the visitors' award and the jury showing the car's photo are drawn without it.
    if (consent.kind === 'media') {
      await redrawCertificatesOf(tx, vehicle);
      await redrawJuryCertificatesOf(tx, [vehicle.id]);
    }
  }
  // The account's flags say whether any consent of the kind still stands.
  await tx.flush();
  const flag = ACCOUNT_FLAG[consent.kind];
  if (flag) {
    const standing = await tx.count(Consent, { user: userId, kind: consent.kind, withdrawnAt: null });
    await tx.nativeUpdate(User, { id: userId }, { [flag]: standing > 0 });
  }
  journalErasure(tx, { kind: 'consent', subject: consent.id });
}
