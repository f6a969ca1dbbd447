import { randomUUID } from 'node:crypto';
import { DEFAULT_RETENTION } from '@schlosstreffen/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../testing/index.js';
import { DataExport } from '../model/data-export.entity.js';
import { Upload } from '../model/upload.entity.js';
import { User } from '../model/user.entity.js';
import { EmailLog } from '../model/email-log.entity.js';
import { Media } from '../model/media.entity.js';
import { Outbox } from '../model/outbox.entity.js';
import { QuartettSet } from '../model/quartett-set.entity.js';
import { Edition } from '../model/edition.entity.js';
import { nextStartNumber } from '../invitations/invitations.queries.js';
import { Invitation } from '../model/invitation.entity.js';
import { Vehicle } from '../model/vehicle.entity.js';
import { VisitorRegistration } from '../model/visitor-registration.entity.js';
import { lastRetentionRun, runRetention } from './retention.js';

const DAY = 24 * 3600 * 1000;
/** The event of these tests ends here; every time is relative to it, none to today. */
const EVENT_END = new Date('2031-06-21T18:00:00Z');
const at = (days: number) => new Date(EVENT_END.getTime() + days * DAY);

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({ relay: false });
  // The test's edition ends at EVENT_END: the periods after the event count from there.
  await t.orm.em
    .fork()
    .nativeUpdate(
      Edition,
      { id: t.event.edition.id },
      { startsAt: new Date(EVENT_END.getTime() - 10 * 3600_000), endsAt: EVENT_END },
    );
});
afterAll(() => t?.close());

const run = (asOfDays: number) => runRetention(t.orm.em, { asOf: at(asOfDays), periods: DEFAULT_RETENTION });

async function seed() {
  const em = t.orm.em.fork();
  const user = em.create(User, {
    email: `retention-${randomUUID()}@example.de`,
    passwordHash: 'x',
    firstName: 'Rita',
    lastName: 'Retention',
    resetToken: 'a'.repeat(64),
    resetTokenExpiry: at(9),
    pendingEmail: 'neu@example.de',
    emailChangeToken: 'b'.repeat(64),
    emailChangeExpiry: at(9),
    emailChangeCancelToken: 'd'.repeat(64),
    emailConfirmToken: 'e'.repeat(64),
    emailConfirmExpiry: at(9),
  });
  const keeper = em.create(User, {
    email: `bleibt-${randomUUID()}@example.de`,
    passwordHash: 'x',
    firstName: 'Bea',
    lastName: 'Bleibt',
    resetToken: 'c'.repeat(64),
    resetTokenExpiry: at(400),
  });
  const vehicle = (status: Vehicle['status']) =>
    em.create(Vehicle, {
      edition: t.event.edition.id,
      user,
      title: 'VW Golf',
      brand: 'VW',
      model: 'Golf',
      year: 1990,
      ps: 112,
      weightKg: 900,
      topSpeedKmh: 190,
      zeroToHundredS: 8.3,
      status,
    });
  const rejected = vehicle('rejected');
  const confirmed = vehicle('confirmed');
  const rejectedImage = randomUUID();
  em.create(Media, { id: rejectedImage, vehicle: rejected, url: `/objects/media/${rejectedImage}/full.jpg` });
  const visitor = (email: string, createdAt: Date, confirmedAt: Date | null) =>
    em.create(VisitorRegistration, {
      edition: t.event.edition.id,
      id: randomUUID(),
      firstName: 'V',
      lastName: 'W',
      email,
      createdAt,
      confirmedAt,
    });
  visitor(`bestaetigt-${randomUUID()}@example.de`, at(-60), at(-60));
  visitor(`offen-alt-${randomUUID()}@example.de`, at(2), null);
  visitor(`offen-neu-${randomUUID()}@example.de`, at(9), null);
  const uploadKey = (label: string) => `uploads/${user.id}/${label}-${randomUUID()}.jpg`;
  const staleUpload = uploadKey('alt');
  const freshUpload = uploadKey('neu');
  const waitingUpload = uploadKey('wartet');
  for (const [key, createdAt] of [
    [staleUpload, at(8)],
    [freshUpload, at(9.5)],
    [waitingUpload, at(8)],
  ] as const) {
    em.create(Upload, { key, user, contentType: 'image/jpeg', size: 10, createdAt });
  }
  const waitingImage = randomUUID();
  em.create(Media, {
    id: waitingImage,
    vehicle: confirmed,
    url: `/objects/media/${waitingImage}/full.jpg`,
    uploadKey: waitingUpload,
  });
  em.create(EmailLog, {
    jobId: randomUUID(),
    recipient: 'alt@example.de',
    template: 'x',
    createdAt: at(-21),
  });
  em.create(EmailLog, { jobId: randomUUID(), recipient: 'neu@example.de', template: 'x', createdAt: at(9) });
  em.create(Outbox, { job: 'email.send', payload: {}, createdAt: at(-40), publishedAt: at(-21) });
  em.create(Outbox, { job: 'email.send', payload: {}, createdAt: at(8), publishedAt: at(9) });
  em.create(Outbox, { job: 'email.send', payload: {}, createdAt: at(-40), publishedAt: null });
  em.create(QuartettSet, {
    edition: t.event.edition.id,
    title: 'Druck',
    status: 'ready',
    exportFileUrl: `/objects/exports/quartett/v99-${randomUUID()}.pdf`,
  });
  em.create(DataExport, {
    user,
    status: 'ready',
    objectKey: `exports/accounts/${randomUUID()}.zip`,
    expiresAt: at(9),
  });
  em.create(DataExport, {
    user: keeper,
    status: 'ready',
    objectKey: `exports/accounts/${randomUUID()}.zip`,
    expiresAt: at(15),
  });
  const invitation = em.create(Invitation, {
    vehicle: confirmed,
    edition: t.event.edition.id,
    startNumber: await nextStartNumber(em, t.event.edition.id),
    qrCode: randomUUID().replaceAll('-', ''),
    parkingZone: 'A',
    checkedIn: true,
    checkedInAt: at(-1),
  });
  await em.flush();
  // Scanned at a gate on the day: which device and staff member stays 30 days after the event.
  const scanId = randomUUID();
  await em
    .getConnection()
    .execute(
      `insert into check_in_scan (id, invitation_id, device_id, gate, scanned_at, staff_id) values (?, ?, ?, 'Tor A', ?, ?)`,
      [scanId, invitation.id, randomUUID(), at(-1), keeper.id],
    );
  await em.nativeUpdate(Invitation, { id: invitation.id }, { checkedInScanId: scanId });
  return { user, keeper, rejected, confirmed, staleUpload, freshUpload, waitingUpload, invitation };
}

describe('retention', () => {
  it('removes at each moment exactly what its periods say, and nothing more when run again', async () => {
    const seeded = await seed();
    const em = () => t.orm.em.fork();
    const storageJobs = async () =>
      (await em().find(Outbox, { job: 'storage.delete' })).flatMap((row) => row.payload.keys as string[]);

    // Ten days after the event: the short periods only.
    const first = await run(10);
    expect(first).toMatchObject({
      unconfirmedVisitors: 1,
      visitorsAfterEvent: 0,
      rejectedAfterEvent: 0,
      unattachedUploads: 1,
      emailLog: 1,
      outbox: 1,
      quartettExportsAfterEvent: 0,
      gateScansAfterEvent: 0,
      accountExports: 1,
      resetTokens: 1,
      emailChanges: 1,
      confirmTokens: 1,
    });
    expect(await em().count(VisitorRegistration, { email: { $like: 'offen-alt-%' } })).toBe(0);
    expect(await em().count(VisitorRegistration, { email: { $like: 'offen-neu-%' } })).toBe(1);
    expect(await em().count(VisitorRegistration, { email: { $like: 'bestaetigt-%' } })).toBe(1);
    expect((await em().find(Upload, {})).map((row) => row.key).sort()).toEqual(
      [seeded.freshUpload, seeded.waitingUpload].sort(),
    );
    expect(await storageJobs()).toContain(seeded.staleUpload);
    expect(await em().count(Vehicle, { id: seeded.rejected.id })).toBe(1);
    const user = await em().findOneOrFail(User, seeded.user.id, {
      populate: ['resetToken', 'emailChangeCancelToken', 'emailConfirmToken'],
    });
    expect(user).toMatchObject({
      resetToken: null,
      pendingEmail: null,
      emailChangeCancelToken: null,
      emailConfirmToken: null,
      emailConfirmExpiry: null,
    });
    const keeper = await em().findOneOrFail(User, seeded.keeper.id, { populate: ['resetToken'] });
    expect(keeper.resetToken).toBe('c'.repeat(64));
    expect(await em().count(Outbox, { job: 'email.send', publishedAt: null })).toBe(1);
    expect(await em().count(DataExport, { user: seeded.keeper.id })).toBe(1);
    expect((await lastRetentionRun(em()))?.asOf).toEqual(at(10));

    // Again at the same moment: nothing more (but the bookkeeping of the runs themselves).
    const again = await run(10);
    expect(Object.entries(again).filter(([rule, count]) => count > 0 && rule !== 'retentionRuns')).toEqual(
      [],
    );

    // A walk-in counted at the gate: it stays as a count, without device or staff account.
    const walkIn = randomUUID();
    await em()
      .getConnection()
      .execute(
        `insert into visitor_ticket_scan (id, edition_id, kind, result, device_id, gate, scanned_at, result_changed_at, staff_id)
         values (?, ?, 'walk_in', 'admitted', ?, 'Tageskasse', ?, ?, ?)`,
        [walkIn, t.event.edition.id, randomUUID(), at(-1), at(-1), seeded.keeper.id],
      );

    // A month after the event: visitors and rejected applications go, with their images.
    const month = await run(31);
    expect(month).toMatchObject({
      unconfirmedVisitors: 1,
      visitorsAfterEvent: 1,
      rejectedAfterEvent: 1,
      quartettExportsAfterEvent: 0,
    });
    expect(await em().count(VisitorRegistration, {})).toBe(0);
    expect(await em().count(Vehicle, { id: seeded.rejected.id })).toBe(0);
    expect(await em().count(Vehicle, { id: seeded.confirmed.id })).toBe(1);
    expect((await storageJobs()).some((key) => key.startsWith('media/'))).toBe(true);
    expect(month.gateScansAfterEvent).toBe(2);
    const [counted] = await em()
      .getConnection()
      .execute<Array<{ device_id: string | null; staff_id: string | null }>>(
        `select device_id, staff_id from visitor_ticket_scan where id = ?`,
        [walkIn],
      );
    expect(counted).toEqual({ device_id: null, staff_id: null });
    const checkedIn = await em().findOneOrFail(Invitation, seeded.invitation.id);
    expect(checkedIn).toMatchObject({ checkedIn: true, checkedInAt: at(-1), checkedInScanId: null });

    // Three months after: the print files.
    const quarter = await run(91);
    expect(quarter.quartettExportsAfterEvent).toBe(1);
    expect(await em().count(QuartettSet, { exportFileUrl: { $ne: null } })).toBe(0);
    expect((await storageJobs()).some((key) => key.startsWith('exports/quartett/'))).toBe(true);
  });

  it("queues the sweep of objects no row names once an hour, past an upload URL's lifetime", async () => {
    const sweeps = async () =>
      (await t.orm.em.fork().find(Outbox, { job: 'storage.sweep' }, { orderBy: { createdAt: 'asc' } })).map(
        (row) => row.payload.before,
      );
    const before = (await sweeps()).length;
    const base = at(400);
    const later = (minutes: number) => new Date(base.getTime() + minutes * 60_000);
    const runAt = (asOf: Date) => runRetention(t.orm.em, { asOf, periods: DEFAULT_RETENTION });
    await runAt(later(5));
    await runAt(later(15));
    await runAt(later(15));
    expect((await sweeps()).slice(before)).toEqual([later(-5).toISOString()]);
    await runAt(later(65));
    expect((await sweeps()).slice(before)).toEqual([later(-5).toISOString(), later(55).toISOString()]);
  });
});
