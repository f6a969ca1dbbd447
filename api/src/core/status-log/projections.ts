import { isDeepStrictEqual } from 'node:util';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { VehicleStatus } from '@schlosstreffen/shared';
import { PublicVehicle } from '../model/public-vehicle.entity.js';
import { refreshPublicVehicles, toPublicData } from '../public-list/public-vehicle.projection.js';
import { Vehicle } from '../model/vehicle.entity.js';
import {
  listedInOtherEdition,
  lastStatuses,
  listedVehicleIds,
  mediaConsentWithdrawn,
  storedStatuses,
} from './status-log.queries.js';

export interface ProjectionMismatch {
  vehicleId: string;
  title: string;
  projected: VehicleStatus;
  replayed: VehicleStatus;
}

export interface RebuildReport {
  vehicles: number;
  events: number;
  /** Vehicles whose stored status differed from the replayed log (before a rebuild fixed them). */
  mismatches: ProjectionMismatch[];
  /** Public list rows that were missing, superfluous or out of date. */
  publicListDrift: number;
  /** Per edition (by year, oldest first): its applications, their status events and mismatches. */
  perEdition: Array<{ year: number; vehicles: number; events: number; mismatches: number }>;
}

/**
 * Replays the status log: a vehicle's status is the newStatus of its last event, or draft without
 * events. With `write`, `vehicle.status` and the public list are rebuilt from that; otherwise the
 * database is only compared.
 */
export async function rebuildProjections(
  em: EntityManager,
  { write }: { write: boolean },
): Promise<RebuildReport> {
  const replayed = await lastStatuses(em);
  const lastStatus = new Map(replayed.map((row) => [row.vehicle_id, row.new_status]));
  const events = replayed.reduce((sum, row) => sum + Number(row.n), 0);

  const eventsOf = new Map(replayed.map((row) => [row.vehicle_id, Number(row.n)]));
  const vehicles = await storedStatuses(em);
  const mismatches: ProjectionMismatch[] = [];
  const perEdition = new Map<
    number,
    { year: number; vehicles: number; events: number; mismatches: number }
  >();
  for (const vehicle of vehicles) {
    const expected = lastStatus.get(vehicle.id) ?? 'draft';
    const edition = perEdition.get(vehicle.year) ?? {
      year: vehicle.year,
      vehicles: 0,
      events: 0,
      mismatches: 0,
    };
    perEdition.set(vehicle.year, edition);
    edition.vehicles += 1;
    edition.events += eventsOf.get(vehicle.id) ?? 0;
    if (expected !== vehicle.status) edition.mismatches += 1;
    if (expected !== vehicle.status) {
      mismatches.push({
        vehicleId: vehicle.id,
        title: vehicle.title,
        projected: vehicle.status,
        replayed: expected,
      });
    }
  }

  // The public list holds confirmed vehicles whose owner did not withdraw the media consent.
  const unpublished = new Set(await mediaConsentWithdrawn(em));
  const confirmed = vehicles
    .filter(
      (vehicle) => (lastStatus.get(vehicle.id) ?? 'draft') === 'confirmed' && !unpublished.has(vehicle.id),
    )
    .map((vehicle) => vehicle.id);
  const confirmedIds = new Set(confirmed);
  const listedIds = new Set(await listedVehicleIds(em));
  let publicListDrift =
    confirmed.filter((id) => !listedIds.has(id)).length +
    [...listedIds].filter((id) => !confirmedIds.has(id)).length;

  if (write) {
    await em.transactional(async (tx) => {
      for (const mismatch of mismatches) {
        await tx.nativeUpdate(Vehicle, { id: mismatch.vehicleId }, { status: mismatch.replayed });
      }
      await tx.nativeDelete(PublicVehicle, {});
      // Rows are rewritten from current data, so stale content is fixed too.
      await refreshPublicVehicles(tx, confirmed);
    });
  } else {
    publicListDrift += await staleRows(
      em,
      confirmed.filter((id) => listedIds.has(id)),
    );
    // A row listed under another edition than its vehicle's would show on the wrong landing page.
    publicListDrift += await listedInOtherEdition(em);
  }
  return {
    vehicles: vehicles.length,
    events,
    mismatches,
    publicListDrift,
    perEdition: [...perEdition.values()].sort((a, b) => a.year - b.year),
  };
}

/** Listed vehicles whose stored public data differs from what their current data would give. */
async function staleRows(em: EntityManager, ids: string[]): Promise<number> {
  if (!ids.length) return 0;
  const fork = em.fork();
  const rows = await fork.find(PublicVehicle, { vehicle: { $in: ids } });
  const vehicles = await fork.find(Vehicle, { id: { $in: ids } }, { populate: ['media'] });
  const current = new Map(vehicles.map((vehicle) => [vehicle.id, toPublicData(vehicle)]));
  return rows.filter((row) => !isDeepStrictEqual(row.data, current.get(row.vehicle.id))).length;
}
