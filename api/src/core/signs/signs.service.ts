import { randomUUID } from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { SIGN_MESSAGES, VEHICLE_MESSAGES, type SignFormat } from '@schlosstreffen/shared';
import { conflict, invalid, notFound } from '../errors.js';
import { enqueue } from '../outbox/outbox.js';
import type { PendingAudit } from '../pending-audit.js';
import { SignExport } from '../model/sign-export.entity.js';
import type { User } from '../model/user.entity.js';
import { Vehicle } from '../model/vehicle.entity.js';
import { authorize } from '../vehicle-policy.js';
import { insertSignExport, signRows } from './signs.queries.js';

export interface SignServiceOptions {
  /** Called after a commit that wrote outbox rows (wakes the relay). */
  onOutbox?: () => void;
}

/** A single car's sign is one sign on an A4 landscape page. */
export const VEHICLE_SIGN_FORMAT: SignFormat = 'a4';

/** A car's sign and the start number it shows now. */
export interface VehicleSign {
  sign: SignExport;
  startNumber: number | null;
}

/** Whether a row's PDF is being made (a request meanwhile gets the same row). */
const inProgress = (row: SignExport) => row.status === 'queued' || row.status === 'rendering';

/**
 * Windshield signs: organizers render an edition's set per format, a car's owner and staff render
 * that car's sign. Asking again renders the same row anew (the names and zones as they are now);
 * while it renders, asking returns it unchanged. Signs change no record, so they may be made for an
 * edition whose meeting is over.
 */
export class SignService {
  constructor(
    private readonly em: EntityManager,
    private readonly options: SignServiceOptions = {},
  ) {}

  /** The edition's sets (one per format). */
  listSets(editionId: string): Promise<SignExport[]> {
    return this.em.find(
      SignExport,
      { edition: editionId, vehicle: null },
      { orderBy: { format: 'asc' }, populate: ['edition'] },
    );
  }

  /** A set by id. */
  async getSet(id: string): Promise<SignExport> {
    const row = await this.em.findOne(
      SignExport,
      { id, vehicle: null },
      { refresh: true, populate: ['edition'] },
    );
    if (!row) throw notFound(SIGN_MESSAGES.notFound);
    return row;
  }

  /** Renders the edition's set in `format` (anew, unless it is being rendered). */
  async startSet(editionId: string, format: SignFormat, audit?: PendingAudit): Promise<SignExport> {
    const row = await this.em.transactional(async (em) => {
      if (!(await signRows(em, editionId)).length) throw invalid(SIGN_MESSAGES.noSigns);
      const row = await this.request(em, { edition: editionId, format, vehicle: null });
      audit?.record(em, { details: { format, export: row.id } });
      return row;
    });
    this.options.onOutbox?.();
    await this.em.populate(row, ['edition']);
    return row;
  }

  /** The car's sign as its owner or staff may read it; 404 before one was asked for. */
  async getForVehicle(user: User | undefined, vehicleId: string): Promise<VehicleSign> {
    const vehicle = await this.vehicleFor(this.em, user, vehicleId);
    const sign = await this.em.findOne(
      SignExport,
      { vehicle: vehicle.id, format: VEHICLE_SIGN_FORMAT },
      { refresh: true, populate: ['edition'] },
    );
    if (!sign) throw notFound(SIGN_MESSAGES.notFound);
    const [row] = await signRows(this.em, vehicle.edition.id, vehicle.id);
    return { sign, startNumber: row?.start_number ?? null };
  }

  /** Renders the car's sign anew; 409 unless it is confirmed and holds a start number. */
  async startForVehicle(user: User | undefined, vehicleId: string): Promise<VehicleSign> {
    const result = await this.em.transactional(async (em) => {
      const vehicle = await this.vehicleFor(em, user, vehicleId);
      const [row] = await signRows(em, vehicle.edition.id, vehicle.id);
      if (!row) throw conflict(SIGN_MESSAGES.vehicleWithoutSign);
      const sign = await this.request(em, {
        edition: vehicle.edition.id,
        format: VEHICLE_SIGN_FORMAT,
        vehicle: vehicle.id,
      });
      return { sign, startNumber: row.start_number };
    });
    this.options.onOutbox?.();
    await this.em.populate(result.sign, ['edition']);
    return result;
  }

  private async vehicleFor(em: EntityManager, user: User | undefined, vehicleId: string): Promise<Vehicle> {
    const vehicle = await em.findOne(Vehicle, { id: vehicleId });
    if (!vehicle) throw notFound(VEHICLE_MESSAGES.vehicleNotFound);
    authorize(user, 'read', vehicle);
    return vehicle;
  }

  /** The row of a set or a car's sign, created or reset and queued, in the caller's transaction. */
  private async request(
    em: EntityManager,
    where: { edition: string; format: SignFormat; vehicle: string | null },
  ): Promise<SignExport> {
    const created = await insertSignExport(em, {
      id: randomUUID(),
      editionId: where.edition,
      format: where.format,
      vehicleId: where.vehicle,
    });
    const row = await em.findOneOrFail(
      SignExport,
      where.vehicle
        ? { vehicle: where.vehicle, format: where.format }
        : { edition: where.edition, format: where.format, vehicle: null },
      { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
    );
    if (!created && inProgress(row)) return row;
    Object.assign(row, {
      status: 'queued',
      progress: 0,
      error: null,
      requestedAt: new Date(),
      finishedAt: null,
    });
    enqueue(em, 'sign.export', { exportId: row.id });
    await em.flush();
    return row;
  }
}
