import { randomBytes } from 'node:crypto';
import type { VehicleStatus } from '@schlosstreffen/shared';
import { nextStartNumber } from '../core/invitations/invitations.queries.js';
import { Invitation } from '../core/model/invitation.entity.js';
import { User } from '../core/model/user.entity.js';
import { Vehicle } from '../core/model/vehicle.entity.js';
import type { TestContext } from './test-context.js';

/**
 * A car of the current edition holding the edition's next start number (as the invitation job
 * gives it), confirmed unless said otherwise: what a windshield sign needs.
 */
export async function insertNumberedCar(
  t: TestContext,
  options: { ownerId: string; name?: string; zone?: string; status?: VehicleStatus },
): Promise<{ vehicleId: string; startNumber: number }> {
  const em = t.orm.em.fork();
  const vehicle = em.create(Vehicle, {
    edition: t.event.edition.id,
    user: em.getReference(User, options.ownerId),
    title: options.name ?? 'Audi Sport Quattro',
    name: options.name ?? null,
    brand: 'Audi',
    model: 'Sport Quattro',
    year: 1984,
    ps: 306,
    weightKg: 1300,
    topSpeedKmh: 250,
    zeroToHundredS: 4.8,
    status: options.status ?? 'confirmed',
  });
  await em.flush();
  const startNumber = await nextStartNumber(em, t.event.edition.id);
  em.create(Invitation, {
    vehicle,
    edition: t.event.edition.id,
    startNumber,
    qrCode: randomBytes(24).toString('base64url'),
    parkingZone: options.zone ?? 'Nord',
  });
  await em.flush();
  return { vehicleId: vehicle.id, startNumber };
}
