import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  INVITATION_MESSAGES,
  PLACES_MESSAGES,
  venueDateTime,
  type EmailTemplateName,
  type VehicleStatus,
} from '@schlosstreffen/shared';
import type { EventConfig } from '../config.js';
import { consentWithdrawn } from '../model/consent-state.js';
import { User } from '../model/user.entity.js';
import { seal } from '../crypto/seal.js';
import { conflict, notFound } from '../errors.js';
import { enqueue } from '../outbox/outbox.js';
import { refreshPublicVehicles } from '../public-list/public-vehicle.projection.js';
import { autoMoveUpEnabled } from '../settings/settings.js';
import { ownerMailProps } from '../status-log/status-effects.js';
import { recordStatusChange, type Actor } from '../status-log/status-log.js';
import { Vehicle } from '../model/vehicle.entity.js';
import { cutoffOf, reminderAt } from './deadlines.js';
import { Invitation, type ReleaseReason } from '../model/invitation.entity.js';
import { invitationConfirmUrl, invitationDeclineUrl } from './invitation-links.js';
import { issueLocked, lockPlaces, placesTaken } from './invitation.issue.js';
import {
  countPendingReleases,
  countPlacesHeld,
  lapsesDue,
  lockPendingReleases,
  markPassedOn,
  remindersDue,
  waitlistInOrder,
  type PendingRelease,
} from './invitations.queries.js';

/** What giving and freeing places needs: the event (zones, dates, deadline rules) and mail links. */
export interface PlacesOptions {
  event: Pick<EventConfig, 'parkingZones' | 'start' | 'invitations'>;
  publicUrl: string;
  secret: string;
}

export type { ReleaseReason };

/** Statuses that hold a place (and an invitation, once its job ran). */
export const holdsPlace = (status: VehicleStatus | null) => status === 'invited' || status === 'confirmed';

/** The system as the actor of deadlines and moving up. */
export const SYSTEM_ACTOR: Actor = { kind: 'system', name: 'System' };

/**
 * Frees the place of a vehicle that stopped holding one, in the caller's transaction (the vehicle
 * locked): its invitation is marked given up (the start number stays taken) and, unless the caller
 * moves the waitlist itself, a job that passes given-up places on is queued.
 */
export async function releasePlace(
  em: EntityManager,
  vehicle: Vehicle,
  reason: ReleaseReason,
  at: Date,
  { moveUp = true }: { moveUp?: boolean } = {},
): Promise<void> {
  const invitation = await em.findOne(Invitation, { vehicle: vehicle.id });
  if (invitation && !invitation.releasedAt) {
    invitation.releasedAt = at;
    invitation.releaseReason = reason;
  }
  if (moveUp) enqueue(em, 'waitlist.advance', {});
}

/** After any status change in a locked transaction: a vehicle leaving invited or confirmed frees its place. */
export async function releaseIfLeft(
  em: EntityManager,
  vehicle: Vehicle,
  from: VehicleStatus | null,
  reason: ReleaseReason,
): Promise<void> {
  if (!holdsPlace(from) || holdsPlace(vehicle.status)) return;
  await releasePlace(em, vehicle, reason, new Date());
}

function queueMail(
  em: EntityManager,
  template: EmailTemplateName,
  owner: User,
  vehicle: Vehicle,
  options: PlacesOptions,
  extra: Record<string, unknown> = {},
  sealed?: Record<string, unknown>,
) {
  enqueue(em, 'email.send', {
    template,
    to: owner.email,
    props: { ...ownerMailProps(owner, vehicle, options.publicUrl), ...extra },
    ...(sealed ? { sealed: seal(options.secret, sealed) } : {}),
  });
}

export type DeclineVia = 'dashboard' | 'link';

/**
 * An owner gives up an invitation or a confirmed place: the vehicle becomes rejected (the owner
 * sees why), its place is freed for the waitlist, its start number stays taken, and a mail says so.
 * From the dashboard the owner is the actor; from the mail's link (no sign-in) the system records it.
 */
export async function declineLocked(
  em: EntityManager,
  vehicle: Vehicle,
  owner: User,
  via: DeclineVia,
  options: PlacesOptions,
): Promise<'declined' | 'already_declined'> {
  const invitation = await em.findOne(Invitation, { vehicle: vehicle.id });
  if (!holdsPlace(vehicle.status)) {
    if (invitation?.releaseReason === 'declined') return 'already_declined';
    throw conflict(INVITATION_MESSAGES.declineOnlyInvited);
  }
  const now = new Date();
  recordStatusChange(em, vehicle, via === 'link' ? SYSTEM_ACTOR : { kind: 'user', user: owner }, {
    to: 'rejected',
    comment: PLACES_MESSAGES.declinedLog(via, invitation?.startNumber ?? null),
  });
  await releasePlace(em, vehicle, 'declined', now);
  if (!(await consentWithdrawn(em, vehicle.id, 'contact'))) {
    queueMail(em, 'invitation-declined', owner, vehicle, options);
  }
  await refreshPublicVehicles(em, [vehicle.id]);
  return 'declined';
}

/** Locks a vehicle by its invitation (decline link, confirm link). */
export async function lockVehicleOf(em: EntityManager, invitation: Invitation): Promise<Vehicle> {
  const vehicle = await em.findOne(
    Vehicle,
    { id: invitation.vehicle.id },
    { lockMode: LockMode.PESSIMISTIC_WRITE },
  );
  if (!vehicle) throw notFound(INVITATION_MESSAGES.declineLinkInvalid);
  return vehicle;
}

/**
 * Reminder mails for invited vehicles whose reminder moment has come, once per invitation
 * (`reminded_at`). Returns how many were queued.
 */
export async function remindDue(em: EntityManager, options: PlacesOptions, asOf: Date): Promise<number> {
  if (options.event.invitations.reminderDays <= 0) return 0;
  const rows = await remindersDue(em, asOf, options.event.invitations.reminderDays);
  let sent = 0;
  for (const row of rows) {
    const queued = await em.fork().transactional(async (tx) => {
      const vehicle = await tx.findOne(
        Vehicle,
        { id: row.vehicle_id },
        { lockMode: LockMode.PESSIMISTIC_WRITE },
      );
      const invitation = await tx.findOne(Invitation, { id: row.invitation_id });
      if (
        !vehicle ||
        !invitation ||
        vehicle.status !== 'invited' ||
        invitation.releasedAt ||
        invitation.remindedAt
      )
        return false;
      const due = reminderAt(invitation, options.event);
      if (!due || due > asOf || !invitation.confirmBy || invitation.confirmBy <= asOf) return false;
      invitation.remindedAt = asOf;
      if (await consentWithdrawn(tx, vehicle.id, 'contact')) return false;
      const owner = await tx.findOneOrFail(User, vehicle.user.id);
      queueMail(
        tx,
        'invitation-reminder',
        owner,
        vehicle,
        options,
        { confirmBy: invitation.confirmBy.toISOString(), startNumber: invitation.startNumber },
        {
          confirmUrl: invitationConfirmUrl(options.publicUrl, options.secret, invitation),
          declineUrl: invitationDeclineUrl(options.publicUrl, options.secret, invitation),
        },
      );
      return true;
    });
    if (queued) sent += 1;
  }
  return sent;
}

/**
 * Invitations unconfirmed past their confirm-by date lapse: the vehicle becomes rejected by the
 * system (the owner sees why), its place is freed, its start number stays taken, and a mail says
 * so. Returns the lapsed vehicles' ids. The caller moves the waitlist afterwards.
 */
export async function lapseDue(em: EntityManager, options: PlacesOptions, asOf: Date): Promise<string[]> {
  const rows = await lapsesDue(em, asOf);
  const lapsed: string[] = [];
  for (const row of rows) {
    const done = await em.fork().transactional(async (tx) => {
      const vehicle = await tx.findOne(
        Vehicle,
        { id: row.vehicle_id },
        { lockMode: LockMode.PESSIMISTIC_WRITE },
      );
      const invitation = await tx.findOne(Invitation, { id: row.invitation_id });
      if (!vehicle || !invitation || vehicle.status !== 'invited' || invitation.releasedAt) return false;
      if (!invitation.confirmBy || invitation.confirmBy > asOf) return false;
      recordStatusChange(tx, vehicle, SYSTEM_ACTOR, {
        to: 'rejected',
        comment: PLACES_MESSAGES.lapsedLog(venueDateTime(invitation.confirmBy), invitation.startNumber),
      });
      await releasePlace(tx, vehicle, 'lapsed', asOf, { moveUp: false });
      if (!(await consentWithdrawn(tx, vehicle.id, 'contact'))) {
        const owner = await tx.findOneOrFail(User, vehicle.user.id);
        queueMail(tx, 'invitation-lapsed', owner, vehicle, options, {
          confirmBy: invitation.confirmBy.toISOString(),
        });
      }
      await refreshPublicVehicles(tx, [vehicle.id]);
      return true;
    });
    if (done) lapsed.push(row.vehicle_id);
  }
  return lapsed;
}

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
  limit: number,
  { lock = false }: { lock?: boolean } = {},
): Promise<WaitlistCandidate[]> {
  const rows = await waitlistInOrder(em, limit, lock);
  return rows.map((row, index) => ({
    vehicleId: row.id,
    rank: index + 1,
    score: row.score === null ? null : Number(row.score),
    submittedAt: new Date(row.submitted_at),
  }));
}

/** Free places over all zones: capacity minus vehicles that hold one (invited ones still without invitation too). */
export async function freePlaces(em: EntityManager, options: Pick<PlacesOptions, 'event'>): Promise<number> {
  const capacity = options.event.parkingZones.reduce((sum, zone) => sum + zone.capacity, 0);
  return Math.max(0, capacity - (await countPlacesHeld(em)));
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
    const releases = await lockPendingReleases(tx);
    const free = await freePlaces(tx, options);
    const report = { invited: [] as MovedUp[], pending: releases.length, free, stopped: null };
    if (releases.length === 0 || free === 0) return report;
    if (!(await autoMoveUpEnabled(tx))) return { ...report, stopped: 'manual' as const };
    if (asOf >= cutoffOf(options.event)) return { ...report, stopped: 'cutoff' as const };
    // A vehicle sent back to the waitlist does not take over its own place.
    const ranked = await rankWaitlist(tx, Math.min(releases.length, free) + releases.length, { lock: true });
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
): Promise<MovedUp> {
  return em.fork().transactional(async (tx) => {
    await lockPlaces(tx);
    const vehicle = await tx.findOne(Vehicle, { id: vehicleId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!vehicle) throw notFound(PLACES_MESSAGES.notWaitlisted);
    if (vehicle.status !== 'waitlist') throw conflict(PLACES_MESSAGES.notWaitlisted);
    if ((await freePlaces(tx, options)) === 0) throw conflict(PLACES_MESSAGES.noFreePlace);
    const [release] = await lockPendingReleases(tx);
    const rank = (await rankWaitlist(tx, 1_000)).find((row) => row.vehicleId === vehicleId)?.rank ?? null;
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
    if (release) await markPassedOn(tx, release.id, new Date());
    await refreshPublicVehicles(tx, [vehicle.id]);
    return {
      vehicleId,
      startNumber: issued.invitation.startNumber,
      parkingZone: issued.invitation.parkingZone,
    };
  });
}

/** What the admin sees of moving up: the switch, the rule, free places per zone and the next candidates. */
export async function placesOverview(em: EntityManager, options: PlacesOptions, now = new Date()) {
  const taken = await placesTaken(em);
  const free = await freePlaces(em, options);
  const candidates = await rankWaitlist(em, 5);
  const vehicles = candidates.length
    ? await em.find(Vehicle, { id: { $in: candidates.map((row) => row.vehicleId) } }, { populate: ['user'] })
    : [];
  const byId = new Map(vehicles.map((vehicle) => [vehicle.id, vehicle]));
  const pending = await countPendingReleases(em);
  return {
    autoMoveUp: await autoMoveUpEnabled(em),
    pending,
    cutoff: cutoffOf(options.event),
    pastCutoff: now >= cutoffOf(options.event),
    free,
    zones: options.event.parkingZones.map((zone) => ({
      name: zone.name,
      capacity: zone.capacity,
      taken: taken.get(zone.name) ?? 0,
    })),
    candidates: candidates.flatMap((candidate) => {
      const vehicle = byId.get(candidate.vehicleId);
      return vehicle ? [{ ...candidate, vehicle }] : [];
    }),
  };
}
