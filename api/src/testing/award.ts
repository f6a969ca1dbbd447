import { randomBytes } from 'node:crypto';
import { nextStartNumber } from '../core/invitations/invitations.queries.js';
import { Invitation } from '../core/model/invitation.entity.js';
import { User } from '../core/model/user.entity.js';
import { Vehicle } from '../core/model/vehicle.entity.js';
import { runStatement } from '../core/db/db.queries.js';
import type { TestContext } from './test-context.js';

/** A confirmed car of the test edition holding the edition's next start number: one to vote for. */
export async function insertVotableCar(t: TestContext, ownerId: string, name: string): Promise<number> {
  const em = t.orm.em.fork();
  const vehicle = em.create(Vehicle, {
    edition: t.event.edition.id,
    user: em.getReference(User, ownerId),
    title: name,
    name,
    brand: 'Audi',
    model: 'Sport Quattro',
    year: 1984,
    ps: 306,
    weightKg: 1300,
    topSpeedKmh: 250,
    zeroToHundredS: 4.8,
    status: 'confirmed',
  });
  await em.flush();
  const startNumber = await nextStartNumber(em, t.event.edition.id);
  em.create(Invitation, {
    vehicle,
    edition: t.event.edition.id,
    startNumber,
    qrCode: randomBytes(24).toString('base64url'),
    parkingZone: 'Nord',
  });
  await em.flush();
  return startNumber;
}

/** Voting of the test edition open from `at`, whatever happened before (results dropped). */
export async function openVotingForTest(t: TestContext, at: Date): Promise<void> {
  await runStatement(
    t.orm.em.fork(),
    `insert into award (edition_id, opened_at, created_at) values (?, ?, now())
     on conflict (edition_id) do update set opened_at = excluded.opened_at, closed_at = null, results = null`,
    [t.event.edition.id, at],
  );
}
