/**
 * The jury's certificates: one print file per edition with a page per awarded place of every closed
 * class, rendered by the worker for a version of the published results. A publication or correction
 * raises the version; a file rendered for an older one never takes the newer one's place.
 */
import { randomUUID } from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { vehicleDisplayName } from '@schlosstreffen/shared';
import { consentWithdrawn } from '../model/consent-state.js';
import { Edition } from '../model/edition.entity.js';
import { Jury, JuryClass } from '../model/jury.entity.js';
import { Media } from '../model/media.entity.js';
import { Vehicle } from '../model/vehicle.entity.js';
import { enqueue } from '../outbox/outbox.js';
import { juryCertificatesKey, keyOf } from '../storage/objects.js';
import { classesNaming } from './jury.queries.js';

/** One page: an awarded place of a closed class. */
export interface JuryCertificate {
  classId: string;
  className: string;
  place: number;
  startNumber: number;
  vehicleId: string;
  /** The car's name as its page shows it ('Rote Zora', else brand and model). */
  carName: string;
  editionName: string;
  year: number;
  /**
   * The key of the car's clean full-size rendition (never the upload), if it has a usable photo and
   * its owner did not withdraw the consent to show the car's images.
   */
  photoKey: string | null;
}

/** What a certificates job renders: the file's key for this version and its pages in order. */
export interface JuryCertificatesPlan {
  key: string;
  version: number;
  editionName: string;
  year: number;
  certificates: JuryCertificate[];
}

/**
 * The pages of an edition's published results at `version`: classes in their order, places from
 * the first; a car whose account was deleted is left out (as on the results page). Null when the
 * results are not published or a newer version exists (its own job renders that one).
 */
export async function juryCertificateTasks(
  em: EntityManager,
  editionId: string,
  version: number,
): Promise<JuryCertificatesPlan | null> {
  const jury = await em.findOne(Jury, { edition: editionId });
  if (!jury?.publishedAt || jury.version !== version) return null;
  const edition = await em.findOneOrFail(Edition, editionId);
  const classes = await em.find(
    JuryClass,
    { edition: editionId, closedAt: { $ne: null } },
    { orderBy: { position: 'asc', name: 'asc' } },
  );
  const rows = classes.flatMap((juryClass) =>
    (juryClass.record?.rows ?? [])
      .filter((row) => row.place !== null && row.vehicleId)
      .sort((a, b) => a.place! - b.place!)
      .map((row) => ({ juryClass, row })),
  );
  const ids = [...new Set(rows.map(({ row }) => row.vehicleId))];
  const vehicles = new Map(
    (ids.length
      ? await em.find(Vehicle, { id: { $in: ids } }, { fields: ['brand', 'model', 'name'] })
      : []
    ).map((vehicle) => [vehicle.id, vehicle]),
  );
  const photos = new Map<string, string | null>();
  for (const id of vehicles.keys()) {
    const photo = (await consentWithdrawn(em, id, 'media'))
      ? null
      : await em.findOne(
          Media,
          { vehicle: id, type: 'image', uploadKey: null, approvalStatus: { $ne: 'rejected' } },
          { orderBy: { isHero: 'desc', priority: 'asc', createdAt: 'asc' } },
        );
    photos.set(id, photo ? (keyOf(photo.url) ?? null) : null);
  }
  return {
    key: juryCertificatesKey(editionId, version),
    version,
    editionName: edition.name,
    year: edition.year,
    certificates: rows.flatMap(({ juryClass, row }) => {
      const vehicle = vehicles.get(row.vehicleId);
      return vehicle
        ? [
            {
              classId: juryClass.id,
              className: juryClass.name,
              place: row.place!,
              startNumber: row.startNumber,
              vehicleId: row.vehicleId,
              carName: vehicleDisplayName(vehicle),
              editionName: edition.name,
              year: edition.year,
              photoKey: photos.get(row.vehicleId) ?? null,
            },
          ]
        : [];
    }),
  };
}

/**
 * Records the rendered file on the jury, only while its version is still the jury's (a newer
 * publication or correction wins). The file it replaces goes from the bucket. False when outdated.
 */
export async function recordJuryCertificates(
  em: EntityManager,
  editionId: string,
  version: number,
  key: string,
): Promise<boolean> {
  return em.fork().transactional(async (tx) => {
    const jury = await tx.findOne(Jury, { edition: editionId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!jury || jury.version !== version) return false;
    const previous = jury.certificatesKey;
    if (previous === key) return true;
    jury.certificatesKey = key;
    if (previous) enqueue(tx, 'storage.delete', { keys: [previous] });
    return true;
  });
}

/**
 * The certificates of these editions are drawn anew (same version, same key) where one was rendered:
 * a car on them lost its photo or its name. In the caller's transaction.
 */
export async function redrawJuryCertificates(em: EntityManager, editionIds: string[]): Promise<void> {
  if (editionIds.length === 0) return;
  const juries = await em.find(Jury, {
    edition: { $in: [...new Set(editionIds)] },
    publishedAt: { $ne: null },
    certificatesKey: { $ne: null },
  });
  for (const jury of juries)
    enqueue(
      em,
      'jury.certificates',
      { editionId: jury.edition.id, version: jury.version },
      { id: randomUUID() },
    );
}

/**
 * The certificates that show one of these cars on a place are drawn anew (its owner withdrew the
 * media consent, or the account goes): call it before the cars leave the record.
 */
export async function redrawJuryCertificatesOf(em: EntityManager, vehicleIds: string[]): Promise<void> {
  if (vehicleIds.length === 0) return;
  const named = await classesNaming(em, vehicleIds);
  if (named.length === 0) return;
  const classes = await em.find(JuryClass, { id: { $in: named } });
  const placing = classes.filter((c) =>
    c.record?.rows.some((row) => row.place !== null && vehicleIds.includes(row.vehicleId)),
  );
  await redrawJuryCertificates(
    em,
    placing.map((c) => c.edition.id),
  );
}
