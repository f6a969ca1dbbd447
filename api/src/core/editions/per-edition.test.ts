import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  APPLYING_NOON,
  readZip,
  changeStatus,
  testClock,
  createTestContext,
  insertImage,
  createVehicle,
  uniqueEmail,
  type SignedIn,
  type TestContext,
  SUBMISSION_CONSENTS,
} from '../../testing/index.js';
import { issueInvitation } from '../invitations/invitation.issue.js';
import { Invitation } from '../model/invitation.entity.js';
import { Vehicle } from '../model/vehicle.entity.js';
import { Consent } from '../model/consent.entity.js';
import { Outbox } from '../model/outbox.entity.js';
import { VisitorRegistration } from '../model/visitor-registration.entity.js';
import { runRetention } from '../privacy/retention.js';
import { CONSENTS, DEFAULT_RETENTION, EDITION_MESSAGES } from '@schlosstreffen/shared';
import { EditionEvents } from './edition-events.js';
import { createEdition, makeCurrent, openApplications } from './editions.js';

/**
 * Two editions side by side: 2026 with its invited car and its visitor, then 2027 made current. Each
 * list, number, gate and sign-up is the edition's own; the earlier one stays readable.
 */

/** During the 2027 meeting: the gate of 2027 is open. */
const EVENT_2027_NOON = new Date('2027-06-20T10:00:00.000Z');
/** Inside 2027's application window (opened in November 2026, deadline 31 March 2027). */
const APPLYING_2027 = new Date('2027-01-15T12:00:00.000Z');
/** The app's clock: 2026's application window while its rows are made, then 2027's; the 2027 gate on its day. */
const clock = testClock(APPLYING_NOON);

let t: TestContext;
let admin: SignedIn;
let owner2026: SignedIn;
let owner2027: SignedIn;
let car2026: string;
let code2026: string;
let startNumber2026: number;
let events: EditionEvents;

const issue = async (vehicleId: string) => {
  const vehicle = await t.orm.em.fork().findOneOrFail(Vehicle, vehicleId);
  return issueInvitation(t.orm.em, vehicleId, {
    event: await events.of(vehicle.edition.id),
    publicUrl: t.config.publicUrl,
    secret: t.config.sessionSecret,
    jobId: randomUUID(),
  });
};

beforeAll(async () => {
  t = await createTestContext({ relay: false, now: clock.now });
  events = new EditionEvents(t.orm.em, 0);
  admin = await t.signIn('admin', { firstName: 'Anna' });
  owner2026 = await t.signIn('user', { firstName: 'Jürgen' });
  owner2027 = await t.signIn('user', { firstName: 'Lena' });

  // 2026: an application invited with its start number, and a visitor.
  const created = await createVehicle(owner2026.client, { brand: 'Audi', model: 'Sport Quattro' });
  car2026 = created.id;
  const submitted = await owner2026.client.patch(`/api/vehicles/${car2026}`, {
    status: 'submitted',
    ...SUBMISSION_CONSENTS,
  });
  expect(submitted.status, submitted.text).toBe(200);
  await changeStatus(admin, car2026, 'submitted', 'invited');
  const issued = (await issue(car2026))!;
  code2026 = issued.invitation.qrCode;
  startNumber2026 = issued.invitation.startNumber;
  // Confirmed while 2026 was ahead: once it is over its record stays as it was.
  await changeStatus(admin, car2026, 'invited', 'confirmed');
  const visitor = await t.client().post('/api/visitor-registrations', {
    firstName: 'Vera',
    lastName: 'Besuch',
    email: uniqueEmail('besuch-2026'),
  });
  expect(visitor.status).toBe(201);

  // 2027 from 2026: opened and made current at a moment that has passed.
  const em = t.orm.em.fork();
  await createEdition(em, { year: 2027 });
  await openApplications(em, 2027, new Date('2026-11-01T09:00:00Z'));
  await makeCurrent(em, 2027, new Date('2026-11-01T10:00:00Z'));
  clock.set(APPLYING_2027);
});
afterAll(() => t?.close());

describe('one edition at a time', () => {
  it('a new application and a visitor sign-up belong to the current edition', async () => {
    const created = await createVehicle(owner2027.client, { brand: 'Porsche', model: '911 GT3' });
    const row = await t.orm.em.fork().findOneOrFail(Vehicle, created.id, { populate: ['edition'] });
    expect(row.edition.year).toBe(2027);
    const email = uniqueEmail('besuch-2027');
    await t.client().post('/api/visitor-registrations', { firstName: 'Vera', lastName: 'Neu', email });
    const signUp = await t.orm.em
      .fork()
      .findOneOrFail(VisitorRegistration, { email }, { populate: ['edition'] });
    expect(signUp.edition.year).toBe(2027);
  });

  it("the staff lists show the current edition's rows, past editions on request", async () => {
    const current = await admin.client.get('/api/admin/vehicles');
    expect(current.status).toBe(200);
    const brands = (res: typeof current) =>
      (res.data.items as Array<{ brand: string }>).map((item) => item.brand);
    expect(brands(current)).toEqual(['Porsche']);
    expect(current.data.counts.all).toBe(1);

    const past = await admin.client.get('/api/admin/vehicles?edition=2026');
    expect(brands(past)).toEqual(['Audi']);
    expect(past.data.counts.confirmed).toBe(1);

    const csv = await admin.client.get('/api/admin/vehicles.csv?edition=2026');
    expect(csv.headers.get('content-disposition')).toContain('bewerbungen-2026-');
    expect(csv.text).toContain('Sport Quattro');
    expect(csv.text).not.toContain('911 GT3');

    const visitors2027 = await admin.client.get('/api/admin/visitors');
    const visitors2026 = await admin.client.get('/api/admin/visitors?edition=2026');
    const lastNames = (res: typeof current) =>
      (res.data.visitors as Array<{ lastName: string }>).map((visitor) => visitor.lastName);
    expect(lastNames(visitors2027)).toEqual(['Neu']);
    expect(lastNames(visitors2026)).toEqual(['Besuch']);

    const unknown = await admin.client.get('/api/admin/vehicles?edition=1999');
    expect(unknown.status).toBe(404);
    expect(unknown.data.message).toBe('Eine Ausgabe 1999 gibt es nicht.');
    const malformed = await admin.client.get('/api/admin/waitlist?edition=zwei');
    expect(malformed.status).toBe(400);
    expect(malformed.data.message).toBe('Bitte wähle eine Ausgabe über ihr Jahr (z. B. 2027).');
  });

  it('start numbers restart, and a code of 2026 is refused at the 2027 gate', async () => {
    const created = await createVehicle(owner2027.client, { brand: 'Nissan', model: 'Skyline R34' });
    await owner2027.client.patch(`/api/vehicles/${created.id}`, {
      status: 'submitted',
      ...SUBMISSION_CONSENTS,
    });
    await changeStatus(admin, created.id, 'submitted', 'invited');
    const issued = (await issue(created.id))!;
    expect(issued.invitation.startNumber).toBe(1);
    expect(startNumber2026).toBeGreaterThanOrEqual(1);
    const invitation = await t.orm.em.fork().findOneOrFail(Invitation, issued.invitation.id, {
      populate: ['edition'],
    });
    expect(invitation.edition.year).toBe(2027);

    // At the 2027 gate on its day.
    const refused = await clock.during(EVENT_2027_NOON, () =>
      admin.client.post('/api/admin/check-in', { code: code2026 }),
    );
    expect(refused.status).toBe(409);
    expect(refused.data).toMatchObject({
      result: 'other_edition',
      message: 'Einladung gilt für Schlosstreffen 2026',
    });
    // Start number 1 is the 2027 car (invited, not confirmed yet), not a car of 2026.
    const byNumber = await clock.during(EVENT_2027_NOON, () =>
      admin.client.post('/api/admin/check-in', { code: '1' }),
    );
    expect(byNumber.data.result).toBe('not_confirmed');

    const list = await admin.client.get('/api/admin/check-in/list');
    expect(list.status).toBe(200);
    expect(list.data.total).toBe(1);
    expect(list.data.entries).toHaveLength(1);
  });

  it("the landing page's list is the current edition's: no car of 2026", async () => {
    const listed = await t.client().get('/api/vehicles/public');
    expect((listed.data as Array<{ id: string }>).map((car) => car.id)).not.toContain(car2026);
  });

  it("the waitlist's figures and the quartett are per edition", async () => {
    const waitlist = await admin.client.get('/api/admin/waitlist?edition=2026');
    expect(waitlist.status).toBe(200);
    const held2026 = (waitlist.data.zones as Array<{ taken: number }>).reduce(
      (sum, zone) => sum + zone.taken,
      0,
    );
    expect(held2026).toBe(1);
    const current = await admin.client.get('/api/admin/waitlist');
    const held2027 = (current.data.zones as Array<{ taken: number }>).reduce(
      (sum, zone) => sum + zone.taken,
      0,
    );
    expect(held2027).toBe(1);

    // 2027 has no confirmed car yet; 2026 has one.
    const none = await admin.client.post('/api/admin/quartett-sets', { title: 'Quartett 2027' });
    expect(none.status).toBe(400);
    const set = await admin.client.post('/api/admin/quartett-sets?edition=2026', { title: 'Quartett 2026' });
    expect(set.status, set.text).toBe(201);
    expect((await admin.client.get('/api/admin/quartett-sets')).data).toEqual([]);
    expect((await admin.client.get('/api/admin/quartett-sets?edition=2026')).data).toHaveLength(1);
  });

  it('looks back on 2026 with its cars once it has ended; 2027 has no look back yet', async () => {
    const back = await t.client().get('/api/editions/2026/look-back');
    expect(back.status, back.text).toBe(200);
    expect(back.data.edition).toMatchObject({ year: 2026, name: 'Schlosstreffen 2026' });
    expect((back.data.vehicles as Array<{ id: string }>).map((car) => car.id)).toEqual([car2026]);
    expect(back.data.checkedIn).toBe(0);
    const ahead = await t.client().get('/api/editions/2027/look-back');
    expect([ahead.status, ahead.data.message]).toEqual([404, 'Einen Rückblick auf 2027 gibt es noch nicht.']);
  });

  it("a 2026 car applies for 2027: its data and photos carried over as a draft without consents; 2026's record stays", async () => {
    const photo = await insertImage(t, car2026);
    const stranger = await owner2027.client.post(`/api/vehicles/${car2026}/reapply`, {});
    expect(stranger.status).toBe(404);

    const again = await owner2026.client.post(`/api/vehicles/${car2026}/reapply`, {});
    expect(again.status, again.text).toBe(201);
    expect(again.data).toMatchObject({
      status: 'draft',
      brand: 'Audi',
      model: 'Sport Quattro',
      edition: { year: 2027, name: 'Schlosstreffen 2027' },
    });
    const em = t.orm.em.fork();
    const source = await em.findOneOrFail(Vehicle, car2026, { populate: ['media'] });
    const copy = await em.findOneOrFail(Vehicle, again.data.id as string, { populate: ['media', 'edition'] });
    expect(copy.carId).toBe(source.carId);
    expect(copy.edition.year).toBe(2027);
    // The photo comes as a copy of its own (new keys), cleaned and rendered by the worker.
    expect(copy.media.getItems().map((item) => [item.isHero, Boolean(item.uploadKey)])).toEqual([
      [false, true],
    ]);
    expect(copy.media[0]!.url).not.toBe(photo.path);
    const copyJobs = await em.find(Outbox, { job: 'media.copy' });
    expect(copyJobs.map((row) => row.payload)).toEqual([
      { mediaId: copy.media[0]!.id, from: photo.path.slice('/objects/'.length) },
    ]);
    // The draft has no consents; the log says where it came from.
    expect(await em.count(Consent, { vehicle: copy.id })).toBe(0);
    const history = await admin.client.get(`/api/vehicles/${copy.id}/reviews`);
    expect(history.status).toBe(200);
    expect(history.data).toEqual([
      expect.objectContaining({ newStatus: 'draft', commentInternal: 'Aus Schlosstreffen 2026 übernommen' }),
    ]);

    // Changing the 2027 application leaves 2026's as recorded.
    const edited = await owner2026.client.patch(`/api/vehicles/${copy.id}`, { color: 'Grün' });
    expect(edited.status, edited.text).toBe(200);
    expect((await em.fork().findOneOrFail(Vehicle, car2026)).color).not.toBe('Grün');
    // The reviewer sees the 2026 participation and what changed since.
    const earlier = await admin.client.get(`/api/admin/vehicles/${copy.id}/earlier`);
    expect(earlier.status, earlier.text).toBe(200);
    expect(earlier.data.applications).toEqual([
      expect.objectContaining({
        id: car2026,
        edition: { year: 2026, name: 'Schlosstreffen 2026' },
        sameCar: true,
        status: 'confirmed',
        startNumber: startNumber2026,
        checkedIn: false,
      }),
    ]);
    expect(earlier.data.changes).toEqual({
      since: { year: 2026, name: 'Schlosstreffen 2026' },
      fields: [{ field: 'color', label: 'Farbe', before: '–', after: 'Grün' }],
      photos: { before: 1, after: 1, carried: 1, added: 0, removed: 0 },
    });
    // A photo replaced for 2027: the new one counts as new, the carried one as gone.
    await insertImage(t, copy.id);
    const dropped = await owner2026.client.delete(`/api/vehicles/${copy.id}/media/${copy.media[0]!.id}`);
    expect(dropped.status, dropped.text).toBe(204);
    const replaced = await admin.client.get(`/api/admin/vehicles/${copy.id}/earlier`);
    expect(replaced.data.changes.photos).toEqual({ before: 1, after: 1, carried: 0, added: 1, removed: 1 });
    const past = await owner2026.client.patch(`/api/vehicles/${car2026}`, { color: 'Grün' });
    expect([past.status, past.data.message]).toEqual([
      409,
      EDITION_MESSAGES.frozenForOwner('Schlosstreffen 2026'),
    ]);

    const twice = await owner2026.client.post(`/api/vehicles/${car2026}/reapply`, {});
    expect([twice.status, twice.data.message]).toEqual([
      409,
      'Dieses Fahrzeug ist für Schlosstreffen 2027 bereits angemeldet.',
    ]);
    const current = await owner2026.client.post(`/api/vehicles/${copy.id}/reapply`, {});
    expect(current.status).toBe(409);

    // Its submission asks for the consents as every other does, and records them then.
    const unasked = await owner2026.client.patch(`/api/vehicles/${copy.id}`, { status: 'submitted' });
    expect([unasked.status, unasked.data.issues?.[0]?.field]).toEqual([400, 'consentMedia']);
    const submitted = await owner2026.client.patch(`/api/vehicles/${copy.id}`, {
      status: 'submitted',
      ...SUBMISSION_CONSENTS,
    });
    expect(submitted.status, submitted.text).toBe(200);
    expect(
      (await em.fork().find(Consent, { vehicle: copy.id })).map((row) => [row.kind, row.version]).sort(),
    ).toEqual([
      ['contact', CONSENTS.contact.version],
      ['media', CONSENTS.media.version],
      ['quartett', CONSENTS.quartett.version],
    ]);
  });

  it("the media library and its ZIP show one edition's images", async () => {
    const owners = (res: { data: Record<string, unknown> }) => ({
      vehicles: [
        ...new Set((res.data.items as Array<{ vehicle: { id: string } }>).map((item) => item.vehicle.id)),
      ],
      total: res.data.total,
    });
    const past = await admin.client.get('/api/admin/media?edition=2026');
    expect(past.status).toBe(200);
    expect(owners(past)).toEqual({ vehicles: [car2026], total: 1 });
    const current = await admin.client.get('/api/admin/media');
    const copies = await t.orm.em.fork().find(Vehicle, {
      carId: (await t.orm.em.fork().findOneOrFail(Vehicle, car2026)).carId,
      edition: { year: 2027 },
    });
    expect(owners(current)).toEqual({ vehicles: copies.map((copy) => copy.id), total: 1 });

    const zip = async (path: string) =>
      readZip(
        Buffer.from(
          await (
            await fetch(`${t.baseUrl}${path}`, { headers: { cookie: admin.client.cookieHeader } })
          ).arrayBuffer(),
        ),
      );
    expect((await zip('/api/admin/media.zip?edition=2026')).map((entry) => entry.name)).toEqual([
      expect.stringMatching(/^Audi_Sport_Quattro_/),
    ]);
  });

  it("retention counts from each edition's end: 2026's visitors go, 2027's stay", async () => {
    await t.orm.em
      .fork()
      .nativeUpdate(VisitorRegistration, {}, { confirmedAt: new Date('2026-11-20T10:00:00Z') });
    // A year after the 2026 meeting, before the end of 2027's.
    const removed = await runRetention(t.orm.em, {
      asOf: new Date('2027-03-01T00:00:00Z'),
      periods: DEFAULT_RETENTION,
    });
    expect(removed.visitorsAfterEvent).toBe(1);
    const left = await t.orm.em.fork().find(VisitorRegistration, {}, { populate: ['edition'] });
    expect(left.map((row) => row.edition.year)).toEqual([2027]);
  });
});
