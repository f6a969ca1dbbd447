import { randomBytes } from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { PARKING_ZONE_UNASSIGNED, vehicleDisplayName } from '@schlosstreffen/shared';
import type { EventConfig } from '../config.js';
import { User } from '../accounts/user.entity.js';
import { consentWithdrawn } from '../accounts/consent-state.js';
import { seal } from '../crypto/seal.js';
import { enqueueFollowUp } from '../outbox/outbox.js';
import { Vehicle } from '../vehicles/vehicle.entity.js';
import { Invitation } from './invitation.entity.js';
import { invitationConfirmUrl } from './invitation-links.js';

/** 192 random bits, URL-safe: the check-in code in the QR code. */
export const newCheckInCode = (): string => randomBytes(24).toString('base64url');

/** Serialises zone allocation: every issuer counts and takes a place under this transaction lock. */
const ZONE_LOCK_KEY = 0x5354_5a4f; // 'STZO'

/**
 * The first configured zone with room left. Places are held by invitations of vehicles that are
 * invited or confirmed; a rejected or withdrawn vehicle's place is free again (its start number not).
 */
export async function allocateParkingZone(
  em: EntityManager,
  zones: EventConfig['parkingZones'],
): Promise<string> {
  const connection = em.getConnection();
  const trx = em.getTransactionContext();
  await connection.execute('select pg_advisory_xact_lock(?)', [ZONE_LOCK_KEY], 'get', trx);
  const rows = await connection.execute<Array<{ zone: string; taken: string }>>(
    `select i.parking_zone as zone, count(*) as taken from invitation i
       join vehicle v on v.id = i.vehicle_id
      where v.status in ('invited', 'confirmed')
      group by i.parking_zone`,
    [],
    'all',
    trx,
  );
  const taken = new Map(rows.map((row) => [row.zone, Number(row.taken)]));
  return zones.find((zone) => (taken.get(zone.name) ?? 0) < zone.capacity)?.name ?? PARKING_ZONE_UNASSIGNED;
}

export interface IssuedInvitation {
  invitation: Invitation;
  vehicle: Vehicle;
  owner: User;
  /** False when the vehicle kept the invitation it got the first time. */
  created: boolean;
  /** Outbox row (and job id) of the invitation mail; null when the owner withdrew the contact consent. */
  mailJobId: string | null;
}

export interface IssueOptions {
  zones: EventConfig['parkingZones'];
  publicUrl: string;
  secret: string;
  /** The job that runs this: its retries and re-deliveries queue the mail once. */
  jobId: string;
}

/**
 * Gives an invited vehicle its invitation and queues its mail, in one transaction: start number from
 * a sequence (never reused), the first zone with room, a fresh check-in code. A vehicle invited again
 * (e.g. after the waitlist) keeps its first invitation and gets it mailed again. The check-in code
 * and confirm link travel sealed. Returns undefined when the vehicle is gone or neither invited nor
 * confirmed.
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
    const owner = await tx.findOneOrFail(User, vehicle.user.id);
    let invitation = await tx.findOne(Invitation, { vehicle: vehicle.id });
    const created = !invitation;
    invitation ??= tx.create(Invitation, {
      vehicle,
      qrCode: newCheckInCode(),
      parkingZone: await allocateParkingZone(tx, options.zones),
    });
    await tx.flush();
    if (await consentWithdrawn(tx, vehicle.id, 'contact')) {
      return { invitation, vehicle, owner, created, mailJobId: null };
    }
    const mailJobId = await enqueueFollowUp(
      tx,
      { jobId: options.jobId, what: 'invitation-mail' },
      'email.send',
      {
        template: 'invitation',
        to: owner.email,
        props: {
          firstName: owner.firstName,
          vehicleTitle: vehicleDisplayName(vehicle),
          dashboardUrl: `${options.publicUrl}/dashboard`,
          startNumber: invitation.startNumber,
          parkingZone: invitation.parkingZone,
        },
        sealed: seal(options.secret, {
          checkInCode: invitation.qrCode,
          confirmUrl: invitationConfirmUrl(options.publicUrl, options.secret, invitation.id),
        }),
      },
    );
    return { invitation, vehicle, owner, created, mailJobId };
  });
}
