import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { CONSENT_KINDS, CONSENTS, PRIVACY_MESSAGES } from '@schlosstreffen/shared';
import { conflict, notFound } from '../errors.js';
import { refreshPublicVehicles } from '../public-list/public-vehicle.projection.js';
import { recordConsentWithdrawal } from '../status-log/status-log.js';
import { Vehicle } from '../model/vehicle.entity.js';
import { Consent } from '../model/consent.entity.js';
import { User } from '../model/user.entity.js';

/**
 * The consents of an application: recorded when it is submitted, withdrawable at any time. What a
 * withdrawal does, per kind: media, the vehicle leaves the public list; quartett, it leaves future
 * print exports; contact, no more mails about the application.
 */

/** Records the wizard's three consents for a new application, in the caller's transaction. */
export async function recordApplicationConsents(
  em: EntityManager,
  user: User,
  vehicle: Vehicle,
  at = new Date(),
): Promise<void> {
  for (const kind of CONSENT_KINDS) {
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
  await em.nativeUpdate(
    User,
    { id: user.id },
    { consentMedia: true, consentQuartett: true, consentContact: true },
  );
}

export function listConsents(
  em: EntityManager,
  where: { user?: string; vehicle?: string },
): Promise<Consent[]> {
  return em.find(Consent, where, { populate: ['vehicle'], orderBy: { grantedAt: 'desc', kind: 'asc' } });
}

/**
 * Withdraws one of the user's consents: noted on the consent, written to the vehicle's status log,
 * and carried out at once (the public list is brought up to date in the same transaction).
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
    consent.withdrawnAt = new Date();
    if (consent.vehicle) {
      const vehicle = await tx.findOneOrFail(Vehicle, consent.vehicle.id, {
        lockMode: LockMode.PESSIMISTIC_WRITE,
      });
      const owner = await tx.findOneOrFail(User, user.id);
      recordConsentWithdrawal(
        tx,
        vehicle,
        owner,
        PRIVACY_MESSAGES.consentWithdrawnLog(CONSENTS[consent.kind].label),
      );
      await tx.flush();
      await refreshPublicVehicles(tx, [vehicle.id]);
    }
    // The account's flags say whether any consent of the kind still stands.
    await tx.flush();
    const standing = await tx.count(Consent, { user: user.id, kind: consent.kind, withdrawnAt: null });
    const flag = { media: 'consentMedia', quartett: 'consentQuartett', contact: 'consentContact' } as const;
    await tx.nativeUpdate(User, { id: user.id }, { [flag[consent.kind]]: standing > 0 });
    await tx.populate(consent, ['vehicle']);
    return consent;
  });
}
