import { randomUUID } from 'node:crypto';
import { CONSENTS, type ConsentKind } from '@schlosstreffen/shared';
import { issueInvitation } from '../core/invitations/invitation.issue.js';
import { Consent } from '../core/model/consent.entity.js';
import { Media } from '../core/model/media.entity.js';
import { User } from '../core/model/user.entity.js';
import { Vehicle } from '../core/model/vehicle.entity.js';
import { refreshPublicVehicles } from '../core/public-list/public-vehicle.projection.js';
import { fullKey, objectPathOf, renditionKey } from '../core/storage/objects.js';
import type { TestContext } from './test-context.js';

export interface CarOptions {
  ownerId: string;
  name?: string;
  brand?: string;
  model?: string;
  story?: string;
  /** Clean images (full size and thumbnail) the car has; the first is its hero. */
  photos?: number;
  /** The owner withdrew the consent to show its images. */
  withoutMedia?: boolean;
  /** The owner allowed the Instagram name on the car's page. */
  instagram?: boolean;
  /** The edition (current by default). */
  editionId?: string;
  /** Left at this status after its invitation was issued (confirmed by default). */
  status?: 'confirmed' | 'invited';
}

/**
 * A car with an issued invitation (its start number), clean photo rows, its consents and its public
 * list row, written straight into the tables (no status log, no stored objects): for reads of a car's
 * page, not for flows that check the record's integrity.
 */
export async function insertCar(
  t: TestContext,
  options: CarOptions,
): Promise<{ vehicleId: string; startNumber: number }> {
  const em = t.orm.em.fork();
  const vehicle = em.create(Vehicle, {
    edition: options.editionId ?? t.event.edition.id,
    user: em.getReference(User, options.ownerId),
    title: options.name ?? `${options.brand ?? 'Audi'} ${options.model ?? 'Sport Quattro'}`,
    name: options.name ?? null,
    brand: options.brand ?? 'Audi',
    model: options.model ?? 'Sport Quattro',
    year: 1984,
    color: 'Weiß',
    ps: 306,
    torqueNm: 350,
    weightKg: 1300,
    topSpeedKmh: 250,
    zeroToHundredS: 4.8,
    cylinders: 5,
    driveType: 'AWD',
    tuningCategories: ['Motor'],
    descriptionShort: 'Kurzer Radstand, lange Geschichte.',
    descriptionLong: options.story ?? null,
    status: 'confirmed',
  });
  for (let index = 0; index < (options.photos ?? 0); index += 1) {
    const id = randomUUID();
    em.create(Media, {
      id,
      vehicle,
      url: objectPathOf(fullKey(id, 'jpg')),
      thumbnailUrl: objectPathOf(renditionKey(id, 480)),
      isHero: index === 0,
      priority: index,
    });
  }
  const kinds: ConsentKind[] = [
    'media',
    'quartett',
    'contact',
    ...(options.instagram ? (['instagram'] as const) : []),
  ];
  for (const kind of kinds) {
    const wording = CONSENTS[kind];
    em.create(Consent, {
      user: em.getReference(User, options.ownerId),
      vehicle,
      kind,
      version: wording.version,
      wording: wording.text,
      source: kind === 'instagram' ? 'dashboard' : 'application',
      grantedAt: new Date(),
      withdrawnAt: kind === 'media' && options.withoutMedia ? new Date() : null,
    });
  }
  await em.flush();
  const issued = await issueInvitation(t.orm.em, vehicle.id, {
    event: t.event,
    publicUrl: t.config.publicUrl,
    secret: t.config.sessionSecret,
    jobId: randomUUID(),
  });
  if (!issued) throw new Error('no invitation issued');
  if (options.status && options.status !== 'confirmed') {
    await t.orm.em.fork().nativeUpdate(Vehicle, { id: vehicle.id }, { status: options.status });
  }
  await t.orm.em.fork().transactional((tx) => refreshPublicVehicles(tx, [vehicle.id]));
  return { vehicleId: vehicle.id, startNumber: issued.invitation.startNumber };
}
