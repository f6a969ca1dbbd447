import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { PLACES_MESSAGES } from '@schlosstreffen/shared';
import { conflict, notFound } from '../errors.js';
import { assertEditionOpenForChanges } from '../editions/frozen.js';
import type { User } from '../model/user.entity.js';
import { Vehicle } from '../model/vehicle.entity.js';
import { refreshPublicVehicles } from '../public-list/public-vehicle.projection.js';
import { autoMoveUpEnabled } from '../settings/settings.js';
import { recordStatusChange } from '../status-log/status-log.js';
import { authorizeStaff } from '../vehicle-policy.js';
import { cutoffOf } from './deadlines.js';
import { issueLocked, lockPlaces } from './invitation.issue.js';
import {
  countPlacesHeld,
  lockPendingReleases,
  markPassedOn,
  waitlistInOrder,
  type PendingRelease,
} from './invitations.queries.js';
import { SYSTEM_ACTOR, type PlacesOptions } from './places.js';

/** Moving up from the waitlist: its order, free places, passing given-up places on, the admin's one click. */

/** A waitlisted vehicle in the order of moving up. */
export interface WaitlistCandidate {
  vehicleId: string;
  rank: number;
  /** The latest score a reviewer gave; null when none. */
  score: number | null;
  /** When the application was (last) submitted. */
  submittedAt: Date;
}

/**
 * The waitlist in the order of moving up: the reviewers' latest score, highest first (vehicles
 * without a score after those with one), then the earlier submission.
 */
export async function rankWaitlist(
  em: EntityManager,
  editionId: string,
  limit: number,
  { lock = false }: { lock?: boolean } = {},
): Promise<WaitlistCandidate[]> {
  const rows = await waitlistInOrder(em, editionId, limit, lock);
  return rows.map((row, index) => ({
    vehicleId: row.id,
    rank: index + 1,
    score: row.score === null ? null : Number(row.score),
    submittedAt: new Date(row.submitted_at),
  }));
}

/**
 * The edition's free places over all zones: capacity minus vehicles that hold one (invited ones still
 * without invitation too).
 */
export async function freePlaces(em: EntityManager, options: Pick<PlacesOptions, 'event'>): Promise<number> {
  const capacity = options.event.parkingZones.reduce((sum, zone) => sum + zone.capacity, 0);
  return Math.max(0, capacity - (await countPlacesHeld(em, options.event.edition.id)));
}

export interface MovedUp {
  vehicleId: string;
  startNumber: number;
  parkingZone: string;
}

export interface AdvanceReport {
  /** Vehicles invited from the waitlist now. */
  invited: MovedUp[];
  /** Given-up places not yet passed on (before moving up). */
  pending: number;
  /** Free places over all zones (before moving up). */
  free: number;
  /** Why nothing moved although places wait: switched off, or past the cut-off. */
  stopped: 'manual' | 'cutoff' | null;
}

/**
 * Passes given-up places on to the waitlist, best ranked first, one vehicle per place, in one
 * transaction under the places lock: concurrent runs (several frees at once, a job delivered twice)
 * queue up, and each sees what the one before did, so a place is passed on once and never more
 * vehicles hold places than the zones have. A moved-up vehicle gets the zone of the place it takes
 * over when that has room. Each step is a status-log row by the system with the rule's reason; each
 * invited vehicle gets its invitation (new start number, confirm-by date from `asOf`) and its mail in
 * the same transaction.
 */
export async function advanceWaitlist(
  em: EntityManager,
  options: PlacesOptions,
  asOf: Date,
): Promise<AdvanceReport> {
  return em.fork().transactional(async (tx) => {
    await lockPlaces(tx);
    const editionId = options.event.edition.id;
    const releases = await lockPendingReleases(tx, editionId);
    const free = await freePlaces(tx, options);
    const report = { invited: [] as MovedUp[], pending: releases.length, free, stopped: null };
    if (releases.length === 0 || free === 0) return report;
    if (!(await autoMoveUpEnabled(tx))) return { ...report, stopped: 'manual' as const };
    if (asOf >= cutoffOf(options.event)) return { ...report, stopped: 'cutoff' as const };
    // A vehicle sent back to the waitlist does not take over its own place.
    const ranked = await rankWaitlist(tx, editionId, Math.min(releases.length, free) + releases.length, {
      lock: true,
    });
    const pairs: Array<{ release: PendingRelease; candidate: WaitlistCandidate }> = [];
    for (const release of releases.slice(0, free)) {
      const candidate = ranked.find(
        (row) => row.vehicleId !== release.vehicle_id && !pairs.some((pair) => pair.candidate === row),
      );
      if (candidate) pairs.push({ release, candidate });
    }
    for (const { release, candidate } of pairs) {
      const vehicle = await tx.findOneOrFail(Vehicle, { id: candidate.vehicleId });
      recordStatusChange(tx, vehicle, SYSTEM_ACTOR, {
        to: 'invited',
        comment: PLACES_MESSAGES.movedUpLog(
          candidate,
          PLACES_MESSAGES.causeOf(release.release_reason, release.start_number),
        ),
      });
      const issued = await issueLocked(tx, vehicle, {
        ...options,
        asOf,
        movedUp: true,
        preferredZone: release.parking_zone,
      });
      await markPassedOn(tx, release.id, asOf);
      report.invited.push({
        vehicleId: vehicle.id,
        startNumber: issued.invitation.startNumber,
        parkingZone: issued.invitation.parkingZone,
      });
    }
    await refreshPublicVehicles(
      tx,
      report.invited.map((row) => row.vehicleId),
    );
    return report;
  });
}

/**
 * An admin's one click on the 'Nachrücker' suggestion (automatic moving up off, or a place free
 * for another reason): invites this waitlisted vehicle if a place is free, as the admin's status-log
 * row; it takes over the oldest given-up place when there is one.
 */
export async function inviteFromWaitlist(
  em: EntityManager,
  options: PlacesOptions,
  admin: User,
  vehicleId: string,
  at: Date = new Date(),
): Promise<MovedUp> {
  return em.fork().transactional(async (tx) => {
    await lockPlaces(tx);
    const vehicle = await tx.findOne(Vehicle, { id: vehicleId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!vehicle) throw notFound(PLACES_MESSAGES.notWaitlisted);
    // Inviting is a status change: never by the owner, nor by staff biased towards the owner.
    await authorizeStaff(tx, admin, 'setAnyStatus', vehicle);
    await assertEditionOpenForChanges(tx, vehicle.edition.id, at, 'staff');
    if (vehicle.status !== 'waitlist' || vehicle.edition.id !== options.event.edition.id)
      throw conflict(PLACES_MESSAGES.notWaitlisted);
    if ((await freePlaces(tx, options)) === 0) throw conflict(PLACES_MESSAGES.noFreePlace);
    const [release] = await lockPendingReleases(tx, options.event.edition.id);
    const rank =
      (await rankWaitlist(tx, options.event.edition.id, 1_000)).find((row) => row.vehicleId === vehicleId)
        ?.rank ?? null;
    recordStatusChange(
      tx,
      vehicle,
      { kind: 'user', user: admin },
      {
        to: 'invited',
        comment: PLACES_MESSAGES.invitedFromSuggestion(rank),
      },
    );
    const issued = await issueLocked(tx, vehicle, {
      ...options,
      movedUp: true,
      preferredZone: release?.parking_zone,
    });
    if (release) await markPassedOn(tx, release.id, at);
    await refreshPublicVehicles(tx, [vehicle.id]);
    return {
      vehicleId,
      startNumber: issued.invitation.startNumber,
      parkingZone: issued.invitation.parkingZone,
    };
  });
}
