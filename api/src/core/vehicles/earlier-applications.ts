/**
 * What a reviewer sees beside an application: the owner's applications in other editions (status,
 * score, start number, checked in or not) and, apart, their other applications of the same edition;
 * and what changed since the car's application of the edition before (fields, and photos carried
 * over, new or gone). Scores follow blind review (`scoresVisibleTo`), except that an earlier
 * edition's application that left review shows its score to every reviewer.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { CHANGED_FIELD_LABELS, VEHICLE_MESSAGES, type VehicleStatus } from '@schlosstreffen/shared';
import type { EarlierApplications } from '@schlosstreffen/shared/api';
import { notFound } from '../errors.js';
import { REVIEW_STATES } from '../model/review-facts.js';
import type { User } from '../model/user.entity.js';
import { scoresVisibleTo } from '../reviews/reviews.js';
import { authorizeStaff } from '../vehicle-policy.js';
import { vehicleData } from '../model/vehicle-data.js';
import { Vehicle } from '../model/vehicle.entity.js';
import { otherApplications } from './vehicles.queries.js';

const shown = (value: unknown): string =>
  value === null || value === undefined || value === ''
    ? '–'
    : Array.isArray(value)
      ? value.join(', ') || '–'
      : String(value);

const photos = (vehicle: Vehicle) =>
  vehicle.media.getItems().filter((item) => item.type === 'image' && item.approvalStatus !== 'rejected');

/** The photos then and now: how many, and how many were carried over, are new or are gone. */
function photoChanges(previous: Vehicle, vehicle: Vehicle) {
  const before = photos(previous);
  const after = photos(vehicle);
  const earlier = new Set(before.map((photo) => photo.id));
  const carried = after.filter((photo) => photo.copiedFrom && earlier.has(photo.copiedFrom)).length;
  return {
    before: before.length,
    after: after.length,
    carried,
    added: after.length - carried,
    removed: before.length - carried,
  };
}

const inReview = (status: string) => (REVIEW_STATES as readonly string[]).includes(status);

export async function earlierApplications(
  em: EntityManager,
  user: User | undefined,
  vehicleId: string,
): Promise<EarlierApplications> {
  const vehicle = await em.findOne(Vehicle, { id: vehicleId }, { populate: ['media', 'edition'] });
  if (!vehicle) throw notFound(VEHICLE_MESSAGES.vehicleNotFound);
  const viewer = await authorizeStaff(em, user, 'readInternal', vehicle);
  const rows = await otherApplications(em, vehicleId);
  const visible = await scoresVisibleTo(
    em,
    viewer,
    rows.map((row) => row.id),
  );
  const sameEdition = (row: (typeof rows)[number]) => row.year === vehicle.edition.year;
  const listed = rows.map((row) => {
    // Only an earlier edition's decided application shows its score to every reviewer.
    const hidden = !visible.has(row.id) && (row.year >= vehicle.edition.year || inReview(row.status));
    return {
      id: row.id,
      edition: { year: row.year, name: row.edition_name },
      sameCar: row.car_id === vehicle.carId,
      title: row.title,
      status: row.status as VehicleStatus,
      score: hidden || row.score === null ? null : Number(row.score),
      scoreHidden: hidden && row.score !== null,
      startNumber: row.start_number,
      checkedIn: row.checked_in,
    };
  });
  const applications = listed.filter((_, index) => !sameEdition(rows[index]!));
  const siblings = listed.filter((_, index) => sameEdition(rows[index]!));
  const previousRow = rows.find((row) => row.car_id === vehicle.carId && row.year < vehicle.edition.year);
  if (!previousRow) return { applications, sameEdition: siblings, changes: null };
  const previous = await em.findOneOrFail(Vehicle, { id: previousRow.id }, { populate: ['media'] });
  const before = vehicleData(previous);
  const after = vehicleData(vehicle);
  const fields = (Object.keys(CHANGED_FIELD_LABELS) as Array<keyof typeof CHANGED_FIELD_LABELS>)
    .filter((field) => JSON.stringify(before[field]) !== JSON.stringify(after[field]))
    .map((field) => ({
      field,
      label: CHANGED_FIELD_LABELS[field],
      before: shown(before[field]),
      after: shown(after[field]),
    }));
  return {
    applications,
    sameEdition: siblings,
    changes: {
      since: { year: previousRow.year, name: previousRow.edition_name },
      fields,
      photos: photoChanges(previous, vehicle),
    },
  };
}
