import { randomUUID } from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  applicationWindowRefusal,
  brandAndModel,
  EDITION_MESSAGES,
  hideScoresIn,
  ownerCanChangeStatus,
  ownerCanDelete,
  PRIVACY_MESSAGES,
  VEHICLE_MESSAGES,
  type AdminStatusUpdate,
  type BulkStatusApply,
  type Correction,
  type OwnerStatus,
  type OwnerStatusPatch,
  type VehicleEdit,
  type VehicleInput,
  bulkResult,
  type VehicleStatus,
} from '@schlosstreffen/shared';
import type { BulkStatusResult, BulkStatusRowResult } from '@schlosstreffen/shared/api';
import { invalid, conflict, forbidden, notFound } from '../errors.js';
import { enqueue } from '../outbox/outbox.js';
import { journalErasure } from '../outbox/erasure-journal.js';
import { mediaObjectKeys } from '../storage/objects.js';
import { Invitation } from '../model/invitation.entity.js';
import { Media } from '../model/media.entity.js';
import { PublicVehicle } from '../model/public-vehicle.entity.js';
import { refreshPublicVehicles } from '../public-list/public-vehicle.projection.js';
import { assertVehicleUnlocked } from '../quartett/vehicle-lock.js';
import { listHistory, recordStatusChange, userActor } from '../status-log/status-log.js';
import { enqueueStatusEffects } from '../status-log/status-effects.js';
import { assertVehicleRoom } from '../accounts/account-limits.js';
import { recordSubmissionConsents } from '../accounts/consents.js';
import { User } from '../model/user.entity.js';
import { assertConfirmable } from '../invitations/confirmable.js';
import { declineLocked } from '../invitations/decline.js';
import { placesOf, releaseIfLeft, type PlacesSource } from '../invitations/places.js';
import { authorize, authorizeStaff, isOwner } from '../vehicle-policy.js';
import { Vehicle } from '../model/vehicle.entity.js';
import { reapplyLocked } from './reapply.js';
import { correctLocked } from './correction.js';
import type { PendingAudit } from '../pending-audit.js';
import { changedRow, lockBulkRow } from './bulk-status.js';
import { editionIdOfVehicle } from '../editions/editions.js';
import { assertEditionOpenForChanges } from '../editions/frozen.js';
import { balanceEdition, changesReview, scoresVisibleTo } from '../reviews/reviews.js';
import type { EditionEvent } from '../editions/edition-events.js';

export interface ServiceOptions {
  /** Base of links in mails. */
  publicUrl: string;
  /** Event (zones, deadline rules) and the secret of mailed links: declines and freed places. */
  places: PlacesSource;
  /** Called after a commit that wrote outbox rows (wakes the relay). */
  onOutbox?: () => void;
  /** The app's clock: which edition is current and whether its applications are open. */
  now?: () => Date;
}

/** Refuses (409) what the edition's application window does not allow at `at`. */
function assertApplicationWindow(event: EditionEvent, at: Date, forDraft: boolean): void {
  const refusal = applicationWindowRefusal(
    {
      name: event.edition.name,
      applicationsOpenAt: event.applicationsOpenAt,
      applicationDeadline: event.applicationDeadline,
    },
    at,
    forDraft,
  );
  if (refusal) throw conflict(refusal);
}

/** Why the owner may not make a change, per target status. */
const OWNER_STATUS_REFUSALS: Record<OwnerStatus, string> = {
  submitted: VEHICLE_MESSAGES.submitOnlyDraft,
  draft: VEHICLE_MESSAGES.withdrawNotAllowed,
  confirmed: VEHICLE_MESSAGES.confirmOnlyInvited,
};

/** Vehicle use cases. Each owns its transaction; status changes go through the status log. */
export class VehicleService {
  constructor(
    private readonly em: EntityManager,
    private readonly options: ServiceOptions,
  ) {}

  listOwn(user: User): Promise<Vehicle[]> {
    return this.em.find(
      Vehicle,
      { user: user.id },
      { populate: ['media', 'edition'], orderBy: { createdAt: 'desc' } },
    );
  }

  /** The invitations of these vehicles by vehicle id, in one query. */
  async invitationsOf(vehicles: readonly Vehicle[]): Promise<Map<string, Invitation>> {
    if (vehicles.length === 0) return new Map();
    const rows = await this.em.find(Invitation, { vehicle: { $in: vehicles.map((vehicle) => vehicle.id) } });
    return new Map(rows.map((row) => [row.vehicle.id, row]));
  }

  async get(user: User | undefined, id: string): Promise<Vehicle> {
    const vehicle = await this.find(id);
    authorize(user, 'read', vehicle);
    return vehicle;
  }

  async history(user: User | undefined, id: string) {
    const vehicle = await this.find(id);
    const me = await authorizeStaff(this.em, user, 'readHistory', vehicle);
    const history = await listHistory(this.em, vehicle.id);
    if ((await scoresVisibleTo(this.em, me, [vehicle.id])).has(vehicle.id)) return history;
    // Blind review: the order and the changes stay; others' scores (also those written into a note,
    // as moving up from the waitlist does), and their reviews' text, go.
    return history.map((entry) =>
      entry.reviewerId === me.id
        ? entry
        : entry.kind === 'review'
          ? { ...entry, score: null, commentInternal: null }
          : {
              ...entry,
              score: null,
              commentInternal: entry.commentInternal && hideScoresIn(entry.commentInternal),
            },
    );
  }

  /** The staff's detail of one application: never of one they own or whose owner they are biased towards. */
  async getForStaff(user: User | undefined, id: string): Promise<Vehicle> {
    const vehicle = await this.find(id);
    await authorizeStaff(this.em, user, 'readInternal', vehicle);
    return vehicle;
  }

  /**
   * Creates a vehicle as draft or, from the wizard, directly as submitted; both are logged. An
   * account holds at most ACCOUNT_LIMITS.vehicles.
   */
  async create(user: User, input: VehicleInput): Promise<Vehicle> {
    const {
      status = 'draft',
      tuningCategories,
      consentMedia,
      consentQuartett,
      consentContact,
      ...fields
    } = input;
    if (status === 'submitted') assertConfirmedAddress(user);
    // A new application is for the edition the public site shows now, within its window.
    const at = this.now();
    const event = await this.options.places.events.at(at);
    assertApplicationWindow(event, at, status === 'draft');
    const { edition } = event;
    const vehicle = await this.em.transactional(async (em) => {
      await assertVehicleRoom(em, user.id, edition.id);
      const id = randomUUID();
      const vehicle = em.create(Vehicle, {
        ...fields,
        id,
        // A new application is a car of its own.
        carId: id,
        edition: edition.id,
        tuningCategories: tuningCategories ?? [],
        user,
        title: brandAndModel(fields),
        status: 'draft',
      });
      recordStatusChange(em, vehicle, userActor(user), { to: status }, null);
      // A submission records the consents it carries; a draft none.
      if (status === 'submitted') {
        await recordSubmissionConsents(
          em,
          user,
          vehicle,
          { consentMedia, consentQuartett, consentContact },
          at,
        );
      }
      await this.effects(em, vehicle, user, status);
      if (changesReview(null, status)) {
        await em.flush();
        await balanceEdition(em, edition.id, at);
      }
      return vehicle;
    });
    this.options.onOutbox?.();
    await this.em.populate(vehicle, ['media']);
    return vehicle;
  }

  /**
   * 'Für {Ausgabe} bewerben': the owner's car of an earlier application applies for the current
   * edition, as a draft with its data and photos carried over; its submission asks for the consents.
   */
  async reapply(user: User, sourceId: string): Promise<Vehicle> {
    const at = this.now();
    const event = await this.options.places.events.at(at);
    // The draft may be prepared before the applications open, not after they closed.
    assertApplicationWindow(event, at, true);
    const { edition } = event;
    const vehicle = await this.em.transactional((em) => reapplyLocked(em, user, sourceId, edition));
    this.options.onOutbox?.();
    return this.get(user, vehicle.id);
  }

  /**
   * Edits fields (owner or staff); a `change` of status alone or alongside is the owner's submit (with
   * the three consents, recorded as sent), withdraw or acceptance of an invitation.
   */
  async update(user: User, id: string, edit: VehicleEdit, change?: OwnerStatusPatch): Promise<Vehicle> {
    const status = change?.status;
    const at = this.now();
    const event = await this.options.places.events.at(at);
    const { edition } = event;
    await this.em.transactional(async (em) => {
      const vehicle = await this.lockForUpdate(em, id);
      authorize(user, 'update', vehicle);
      await assertEditionOpenForChanges(em, vehicle.edition.id, at, audienceOf(user, vehicle));
      // An earlier edition's application is a record: its car applies anew instead.
      if (vehicle.edition.id !== edition.id) throw conflict(EDITION_MESSAGES.pastReadOnly);
      const fields = edit;
      if (Object.keys(fields).length) {
        // A released quartett set fixes the printed data; status changes stay possible.
        await assertVehicleUnlocked(em, vehicle.id);
        em.assign(vehicle, fields);
        vehicle.title = brandAndModel(vehicle);
      }
      // Sending the current status again is refused like any other transition the owner may not make.
      if (status) {
        authorize(user, 'changeOwnStatus', vehicle);
        if (status === 'submitted') {
          assertConfirmedAddress(user);
          assertApplicationWindow(event, at, false);
        }
        if (!ownerCanChangeStatus(vehicle.status, status)) {
          throw conflict(OWNER_STATUS_REFUSALS[status]);
        }
        if (status === 'confirmed') await assertConfirmable(em, vehicle.id);
        const from = vehicle.status;
        recordStatusChange(em, vehicle, userActor(user), { to: status });
        // The owner's submission records the consents it carries; a staff member's records none.
        if (status === 'submitted' && isOwner(user, vehicle)) {
          await recordSubmissionConsents(em, user, vehicle, change ?? {}, at);
        }
        await releaseIfLeft(em, vehicle, from, 'declined');
        await this.effects(em, vehicle, await this.ownerOf(em, vehicle), status);
        await this.rebalance(em, vehicle, from, at);
      }
      await refreshPublicVehicles(em, [vehicle.id]);
    });
    this.options.onOutbox?.();
    return this.get(user, id);
  }

  /**
   * A reviewer's or admin's change to any status. `oldStatus` is what the client saw: when the
   * vehicle has moved on since, nothing changes and the answer is 409.
   */
  async setStatus(user: User, id: string, update: AdminStatusUpdate): Promise<Vehicle> {
    await this.em.transactional(async (em) => {
      const vehicle = await this.lockForUpdate(em, id);
      await authorizeStaff(em, user, 'setAnyStatus', vehicle);
      await assertEditionOpenForChanges(em, vehicle.edition.id, this.now(), 'staff');
      if (vehicle.status !== update.oldStatus) throw conflict(VEHICLE_MESSAGES.staleStatus);
      if (update.status === vehicle.status) throw invalid(VEHICLE_MESSAGES.statusUnchanged);
      const from = await this.staffChange(em, user, vehicle, update);
      await this.rebalance(em, vehicle, from, this.now());
    });
    this.options.onOutbox?.();
    return this.get(user, id);
  }

  /**
   * A reviewer's or admin's change of many applications of the edition to one status (bulk-status.ts):
   * each row in a transaction of its own, so a stale row is refused alone and the others stand.
   */
  async setStatuses(user: User, editionId: string, input: BulkStatusApply): Promise<BulkStatusResult> {
    await assertEditionOpenForChanges(this.em, editionId, this.now(), 'staff');
    const options = { editionId, status: input.status, comment: input.comment };
    const rows: BulkStatusRowResult[] = [];
    let reviewChanged = false;
    for (const change of input.changes) {
      const row = await this.em.transactional(async (em) => {
        const locked = await lockBulkRow(em, user, change, options);
        if ('result' in locked) return locked.result;
        // As setStatus does, but the reviewers are assigned anew once for all rows (below).
        const { vehicle } = locked;
        const from = await this.staffChange(em, user, vehicle, {
          status: input.status,
          comment: input.comment,
        });
        reviewChanged ||= changesReview(from, input.status);
        return changedRow(em, vehicle);
      });
      rows.push(row);
      // Each row's mail is on its way as soon as the row is committed.
      if (row.outcome === 'changed') this.options.onOutbox?.();
    }
    if (reviewChanged) {
      await this.em.transactional((em) => balanceEdition(em, editionId, this.now()));
    }
    return bulkResult(input.status, rows);
  }

  /**
   * An admin corrects the record of an edition that is over (correction.ts): a status, or the
   * check-in of a confirmed car, with a reason; the status-log row and `audit` in one transaction.
   */
  async correct(user: User, id: string, input: Correction, audit?: PendingAudit): Promise<Vehicle> {
    await this.em.transactional(async (em) => {
      const vehicle = await this.lockForUpdate(em, id);
      await authorizeStaff(em, user, 'correct', vehicle);
      await correctLocked(em, user, vehicle, input, this.now(), audit);
    });
    return this.get(user, id);
  }

  /**
   * The owner gives up an invitation or a confirmed place from the dashboard: rejected with the
   * reason shown to them, the place freed for the waitlist, a mail.
   */
  async decline(
    user: User,
    id: string,
  ): Promise<{ status: 'declined' | 'already_declined'; vehicle: Vehicle }> {
    // Read before the transaction: it needs no second connection while holding its lock.
    const editionId = await editionIdOfVehicle(this.em, id);
    if (!editionId) throw notFound(VEHICLE_MESSAGES.vehicleNotFound);
    const places = await placesOf(this.options.places, editionId);
    const status = await this.em.transactional(async (em) => {
      const vehicle = await this.lockForUpdate(em, id);
      authorize(user, 'changeOwnStatus', vehicle);
      // Staff change statuses in the admin dialog; declining is the owner's own act.
      if (!isOwner(user, vehicle)) throw forbidden();
      await assertEditionOpenForChanges(em, editionId, this.now(), 'owner');
      return declineLocked(em, vehicle, await this.ownerOf(em, vehicle), 'dashboard', places, this.now());
    });
    this.options.onOutbox?.();
    return { status, vehicle: await this.get(user, id) };
  }

  /** Drafts only; the rows go at once, the stored images through the outbox. */
  async delete(user: User, id: string): Promise<void> {
    await this.em.transactional(async (em) => {
      const vehicle = await this.lockForUpdate(em, id);
      authorize(user, 'delete', vehicle);
      if (!ownerCanDelete(vehicle.status)) throw conflict(VEHICLE_MESSAGES.deleteOnlyDraft);
      await deleteVehicleLocked(em, vehicle);
    });
    this.options.onOutbox?.();
  }

  private async effects(
    em: EntityManager,
    vehicle: Vehicle,
    owner: User,
    status: VehicleStatus,
  ): Promise<void> {
    await enqueueStatusEffects(em, vehicle, owner, status, this.options.publicUrl);
  }

  /**
   * A staff member's change of one locked vehicle: the log row, a place given up, the mail, the
   * public list. Returns the status it had.
   */
  private async staffChange(
    em: EntityManager,
    user: User,
    vehicle: Vehicle,
    change: { status: VehicleStatus; comment?: string | null; score?: number | null },
  ): Promise<VehicleStatus> {
    const from = vehicle.status;
    recordStatusChange(em, vehicle, userActor(user), {
      to: change.status,
      comment: change.comment,
      score: change.score,
    });
    await releaseIfLeft(em, vehicle, from, 'revoked');
    await this.effects(em, vehicle, await this.ownerOf(em, vehicle), change.status);
    await refreshPublicVehicles(em, [vehicle.id]);
    return from;
  }

  /** An application that entered or left review: its edition's reviewers are assigned anew. */
  private async rebalance(em: EntityManager, vehicle: Vehicle, from: VehicleStatus, at: Date): Promise<void> {
    if (!changesReview(from, vehicle.status)) return;
    await em.flush();
    await balanceEdition(em, vehicle.edition.id, at);
  }

  private now(): Date {
    return this.options.now?.() ?? new Date();
  }

  private ownerOf(em: EntityManager, vehicle: Vehicle): Promise<User> {
    return em.findOneOrFail(User, vehicle.user.id);
  }

  private async find(id: string): Promise<Vehicle> {
    const vehicle = await this.em.findOne(Vehicle, { id }, { populate: ['media', 'edition'] });
    if (!vehicle) throw notFound(VEHICLE_MESSAGES.vehicleNotFound);
    return vehicle;
  }

  /** The vehicle row locked for the rest of the transaction, so concurrent changes queue up. */
  private async lockForUpdate(em: EntityManager, id: string): Promise<Vehicle> {
    const vehicle = await em.findOne(Vehicle, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!vehicle) throw notFound(VEHICLE_MESSAGES.vehicleNotFound);
    return vehicle;
  }
}

/** Removes a locked vehicle with its rows, its stored images through the outbox; journaled as an erasure. */
async function deleteVehicleLocked(em: EntityManager, vehicle: Vehicle): Promise<void> {
  const media = await em.find(Media, { vehicle: vehicle.id });
  const keys = media.flatMap(mediaObjectKeys);
  if (keys.length) enqueue(em, 'storage.delete', { keys });
  await em.nativeDelete(PublicVehicle, { vehicle: vehicle.id });
  em.remove(vehicle);
  journalErasure(em, { kind: 'application', subject: vehicle.id });
}

/** A restore's replay of an application deleted after its backup; nothing when it is gone already. */
export async function replayApplicationDeletion(em: EntityManager, vehicleId: string): Promise<boolean> {
  return em.fork().transactional(async (tx) => {
    const vehicle = await tx.findOne(Vehicle, { id: vehicleId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!vehicle) return false;
    await deleteVehicleLocked(tx, vehicle);
    return true;
  });
}

/** Whom a refusal addresses: the owner (du) or staff (Sie). */
const audienceOf = (user: User, vehicle: Vehicle) => (isOwner(user, vehicle) ? 'owner' : 'staff');

/** Only an account whose address is confirmed submits an application; drafts need nothing. */
function assertConfirmedAddress(user: User): void {
  if (!user.emailVerified) throw forbidden(PRIVACY_MESSAGES.emailUnconfirmed);
}
