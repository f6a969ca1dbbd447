import { randomBytes } from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { PARKING_ZONE_UNASSIGNED } from '@schlosstreffen/shared';
import type { EditionEvent } from '../editions/edition-events.js';
import { User } from '../model/user.entity.js';
import { enqueueShareImage } from '../public-list/share-image.js';
import { consentWithdrawn } from '../model/consent-state.js';
import { seal } from '../crypto/seal.js';
import { enqueue, enqueueFollowUp } from '../outbox/outbox.js';
import { Vehicle } from '../model/vehicle.entity.js';
import { Edition } from '../model/edition.entity.js';
import { Invitation } from '../model/invitation.entity.js';
import { openPayment } from '../payments/payments.js';
import { paymentMailOf } from '../payments/payment-mails.js';
import { invitationConfirmUrl, invitationDeclineUrl } from './invitation-links.js';
import { confirmByFor } from './deadlines.js';
import { ownerMailProps } from '../status-log/status-effects.js';
import { advisoryTransactionLock, nextStartNumber, placesPerZone } from './invitations.queries.js';

/** 192 random bits, URL-safe: the check-in code in the QR code. */
export const newCheckInCode = (): string => randomBytes(24).toString('base64url');

/** Serialises zone allocation and moving up: every issuer counts and takes a place under this lock. */
const ZONE_LOCK_KEY = 0x5354_5a4f; // 'STZO'

/** Takes the transaction lock under which places are counted and given. */
export async function lockPlaces(em: EntityManager): Promise<void> {
  await advisoryTransactionLock(em, ZONE_LOCK_KEY);
}

/** The edition's places held per zone: invitations not given up, of vehicles that are invited or confirmed. */
export async function placesTaken(em: EntityManager, editionId: string): Promise<Map<string, number>> {
  const rows = await placesPerZone(em, editionId);
  return new Map(rows.map((row) => [row.zone, Number(row.taken)]));
}

/**
 * The edition's first zone with room left. Places are held by invitations of vehicles that are
 * invited or confirmed; a released invitation's place is free again (its start number not).
 */
export async function allocateParkingZone(
  em: EntityManager,
  event: Pick<EditionEvent, 'parkingZones' | 'edition'>,
  /** The zone of the place this one takes over (moving up), when it has room. */
  preferred?: string,
): Promise<string> {
  await lockPlaces(em);
  const zones = event.parkingZones;
  const taken = await placesTaken(em, event.edition.id);
  const hasRoom = (zone: { name: string; capacity: number }) => (taken.get(zone.name) ?? 0) < zone.capacity;
  const wanted = zones.find((zone) => zone.name === preferred);
  if (wanted && hasRoom(wanted)) return wanted.name;
  return zones.find(hasRoom)?.name ?? PARKING_ZONE_UNASSIGNED;
}

export interface IssuedInvitation {
  invitation: Invitation;
  vehicle: Vehicle;
  owner: User;
  /** False when the vehicle kept the invitation it holds. */
  created: boolean;
  /** Outbox row (and job id) of the invitation mail; null when the owner withdrew the contact consent. */
  mailJobId: string | null;
}

export interface IssueOptions {
  /** The vehicle's edition. */
  event: Pick<EditionEvent, 'parkingZones' | 'start' | 'invitations' | 'edition'>;
  publicUrl: string;
  secret: string;
  /** The moment of issue (the scheduler's as-of moment; now otherwise): start of the confirm-by period. */
  asOf?: Date;
  /**
   * The job that runs this: its retries and re-deliveries queue the mail once. Without it the mail
   * is queued under a fresh id (callers whose transaction cannot run twice).
   */
  jobId?: string;
  /** The mail says the vehicle moved up from the waitlist. */
  movedUp?: boolean;
  /** Zone to give when it has room (the zone of the place taken over). */
  preferredZone?: string;
}

/**
 * Gives an invited vehicle, locked by the caller, its invitation and queues its mail in the caller's
 * transaction: start number counted per edition (never given twice), the first zone with room, a fresh
 * check-in code and the confirm-by date. A vehicle that holds its invitation keeps it (and gets it
 * mailed again); one whose invitation was given up (declined, lapsed, revoked) gets a new number,
 * zone and code.
 */
export async function issueLocked(
  tx: EntityManager,
  vehicle: Vehicle,
  options: IssueOptions,
): Promise<IssuedInvitation> {
  const asOf = options.asOf ?? new Date();
  const editionId = options.event.edition.id;
  if (vehicle.edition.id !== editionId)
    throw new Error(`Vehicle ${vehicle.id} is not of edition ${options.event.edition.year}`);
  const owner = await tx.findOneOrFail(User, vehicle.user.id);
  let invitation = await tx.findOne(Invitation, { vehicle: vehicle.id });
  const created = !invitation || invitation.releasedAt !== null;
  if (!invitation) {
    invitation = tx.create(Invitation, {
      vehicle,
      edition: editionId,
      startNumber: await nextStartNumber(tx, editionId),
      qrCode: newCheckInCode(),
      parkingZone: await allocateParkingZone(tx, options.event, options.preferredZone),
      issuedAt: asOf,
      confirmBy: confirmByFor(asOf, options.event),
    });
  } else if (invitation.releasedAt) {
    Object.assign(invitation, {
      startNumber: await nextStartNumber(tx, editionId),
      qrCode: newCheckInCode(),
      parkingZone: await allocateParkingZone(tx, options.event, options.preferredZone),
      issuedAt: asOf,
      confirmBy: confirmByFor(asOf, options.event),
      remindedAt: null,
      releasedAt: null,
      releaseReason: null,
      passedOnAt: null,
      checkedIn: false,
      checkedInAt: null,
    });
  }
  await tx.flush();
  // The fee as the edition's row has it now (a process's cache of the editions may be older).
  const { fee } = await tx.findOneOrFail(Edition, editionId);
  const payment = fee ? await openPayment(tx, invitation, fee, options.event.edition.year) : null;
  if (payment) await tx.flush();
  // A confirmed car given its number only now: its link preview shows the number.
  if (created && vehicle.status === 'confirmed') enqueueShareImage(tx, vehicle.id);
  if (await consentWithdrawn(tx, vehicle.id, 'contact')) {
    return { invitation, vehicle, owner, created, mailJobId: null };
  }
  const payload = {
    template: 'invitation' as const,
    to: owner.email,
    vehicleId: vehicle.id,
    props: {
      ...ownerMailProps(owner, vehicle, options.publicUrl),
      startNumber: invitation.startNumber,
      parkingZone: invitation.parkingZone,
      confirmBy: invitation.confirmBy?.toISOString() ?? null,
      movedUp: options.movedUp ?? false,
      payment: payment && fee ? paymentMailOf(payment, fee) : null,
    },
    sealed: seal(options.secret, {
      checkInCode: invitation.qrCode,
      confirmUrl: invitationConfirmUrl(options.publicUrl, options.secret, invitation),
      declineUrl: invitationDeclineUrl(options.publicUrl, options.secret, invitation),
    }),
  };
  const mailJobId = options.jobId
    ? await enqueueFollowUp(tx, { jobId: options.jobId, what: 'invitation-mail' }, 'email.send', payload)
    : enqueue(tx, 'email.send', payload).id;
  return { invitation, vehicle, owner, created, mailJobId };
}

/**
 * The invitation job: locks the vehicle and issues its invitation in one transaction. Returns
 * undefined when the vehicle is gone or neither invited nor confirmed.
 */
export async function issueInvitation(
  em: EntityManager,
  vehicleId: string,
  options: IssueOptions,
): Promise<IssuedInvitation | undefined> {
  return em.fork().transactional(async (tx) => {
    const vehicle = await tx.findOne(Vehicle, { id: vehicleId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    // Confirmed already: the owner accepted on the dashboard before this job ran; the invitation
    // (start number, zone, check-in code) is still needed at the gate.
    if (!vehicle || (vehicle.status !== 'invited' && vehicle.status !== 'confirmed')) return undefined;
    return issueLocked(tx, vehicle, options);
  });
}
