import type { EntityManager } from '@mikro-orm/postgresql';
import { Vehicle } from '../model/vehicle.entity.js';
import { autoMoveUpEnabled } from '../settings/settings.js';
import { cutoffOf } from './deadlines.js';
import { placesTaken } from './invitation.issue.js';
import { countPendingReleases } from './invitations.queries.js';
import type { PlacesOptions } from './places.js';
import { freePlaces, rankWaitlist } from './waitlist.js';

/** What the admin sees of moving up in the options' edition: the switch, the rule, free places per zone and the next candidates. */
export async function placesOverview(em: EntityManager, options: PlacesOptions, now = new Date()) {
  const editionId = options.event.edition.id;
  const taken = await placesTaken(em, editionId);
  const free = await freePlaces(em, options);
  const candidates = await rankWaitlist(em, editionId, 5);
  const vehicles = candidates.length
    ? await em.find(Vehicle, { id: { $in: candidates.map((row) => row.vehicleId) } }, { populate: ['user'] })
    : [];
  const byId = new Map(vehicles.map((vehicle) => [vehicle.id, vehicle]));
  const pending = await countPendingReleases(em, editionId);
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
