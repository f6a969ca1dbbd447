import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { awardTitle } from '@schlosstreffen/shared';
import { enqueue } from '../outbox/outbox.js';
import { Award } from '../model/award.entity.js';
import { consentWithdrawn } from '../model/consent-state.js';
import { Edition } from '../model/edition.entity.js';
import { Media } from '../model/media.entity.js';
import { awardCertificateKey, keyOf } from '../storage/objects.js';

/** One certificate to render: a car among the first three of a closed vote. */
export interface AwardCertificate {
  key: string;
  vehicleId: string;
  rank: number;
  startNumber: number;
  name: string;
  votes: number;
  title: string;
  editionName: string;
  /**
   * The key of the car's clean full-size rendition (never the upload), if it has a usable photo and
   * its owner did not withdraw the consent to show the car's images.
   */
  photoKey: string | null;
}

/** The certificates of an edition's closed vote (its first three, ties sharing a rank); none while open. */
export async function awardCertificateTasks(
  em: EntityManager,
  editionId: string,
): Promise<AwardCertificate[]> {
  const award = await em.findOne(Award, { edition: editionId });
  if (!award?.closedAt || !award.results) return [];
  const edition = await em.findOneOrFail(Edition, editionId);
  const winners = award.results.filter((row) => row.rank <= 3);
  const tasks: AwardCertificate[] = [];
  for (const row of winners) {
    const photo = (await consentWithdrawn(em, row.vehicleId, 'media'))
      ? null
      : await em.findOne(
          Media,
          { vehicle: row.vehicleId, type: 'image', uploadKey: null, approvalStatus: { $ne: 'rejected' } },
          { orderBy: { isHero: 'desc', priority: 'asc', createdAt: 'asc' } },
        );
    tasks.push({
      key: awardCertificateKey(editionId, row.vehicleId),
      vehicleId: row.vehicleId,
      rank: row.rank,
      startNumber: row.startNumber,
      name: row.name,
      votes: row.votes,
      title: awardTitle(edition.year),
      editionName: edition.name,
      photoKey: photo ? (keyOf(photo.url) ?? null) : null,
    });
  }
  return tasks;
}

/** Records the rendered certificates' keys on the award (by vehicle id). */
export async function recordAwardCertificates(
  em: EntityManager,
  editionId: string,
  keys: Record<string, string>,
): Promise<void> {
  await em.fork().transactional(async (tx) => {
    const award = await tx.findOneOrFail(Award, { edition: editionId });
    award.certificates = { ...award.certificates, ...keys };
  });
}

/**
 * The certificates of the vehicle's edition are drawn anew when one shows the vehicle (its owner
 * withdrew the consent to show its images: the photo goes), in the caller's transaction.
 */
export async function redrawCertificatesOf(
  em: EntityManager,
  vehicle: { id: string; edition: { id: string } },
): Promise<void> {
  const award = await em.findOne(Award, { edition: vehicle.edition.id });
  if (award?.certificates?.[vehicle.id])
    enqueue(em, 'award.certificates', { editionId: vehicle.edition.id }, { id: randomUUID() });
}
