import type { EntityManager } from '@mikro-orm/postgresql';
import type { EmailTemplateName, VehicleStatus } from '@schlosstreffen/shared';
import type { EditionEvent, EventSource } from '../editions/edition-events.js';
import { seal } from '../crypto/seal.js';
import { Edition } from '../model/edition.entity.js';
import { Invitation, type ReleaseReason } from '../model/invitation.entity.js';
import { releasePayment } from '../payments/payments.js';
import type { User } from '../model/user.entity.js';
import type { Vehicle } from '../model/vehicle.entity.js';
import { enqueue } from '../outbox/outbox.js';
import { ownerMailProps } from '../status-log/status-effects.js';
import type { Actor } from '../status-log/status-log.js';

/**
 * Places: who holds one and how one is freed. Declining is in decline.ts, the deadline sweeps in
 * deadline-sweeps.ts, moving up from the waitlist in waitlist.ts, the admin's view in
 * places-overview.ts.
 */

/**
 * What giving and freeing places needs: the edition whose places they are (zones, dates, deadline
 * rules) and mail links.
 */
export interface PlacesOptions {
  event: Pick<EditionEvent, 'parkingZones' | 'start' | 'invitations' | 'edition' | 'fee'>;
  publicUrl: string;
  secret: string;
}

/** Where the editions' events come from at each call (see `editions/edition-events.ts`). */
export interface PlacesSource {
  events: EventSource;
  publicUrl: string;
  secret: string;
}

/** The places options of the edition current at `at`. */
export async function placesAt(source: PlacesSource, at: Date): Promise<PlacesOptions> {
  return { event: await source.events.at(at), publicUrl: source.publicUrl, secret: source.secret };
}

/** The places options of one edition (the one an application belongs to). */
export async function placesOf(source: PlacesSource, editionId: string): Promise<PlacesOptions> {
  return { event: await source.events.of(editionId), publicUrl: source.publicUrl, secret: source.secret };
}

export type { ReleaseReason };

/** Statuses that hold a place (and an invitation, once its job ran). */
export const holdsPlace = (status: VehicleStatus | null) => status === 'invited' || status === 'confirmed';

/** The system as the actor of deadlines and moving up. */
export const SYSTEM_ACTOR: Actor = { kind: 'system', name: 'System' };

/**
 * Frees the place of a vehicle that stopped holding one, in the caller's transaction (the vehicle
 * locked): its invitation is marked given up (the start number stays taken), its fee's refund rule
 * applied (what was paid beyond what the club keeps becomes a refund due) and, unless the caller
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
    const edition = await em.findOneOrFail(Edition, vehicle.edition.id);
    await releasePayment(em, invitation.id, edition.fee, reason, at);
  }
  if (moveUp) enqueue(em, 'waitlist.advance', { editionId: vehicle.edition.id });
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

/** Queues a mail about the owner's place (with sealed links when given). */
export function queueOwnerMail(
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
    vehicleId: vehicle.id,
    ...(sealed ? { sealed: seal(options.secret, sealed) } : {}),
  });
}
