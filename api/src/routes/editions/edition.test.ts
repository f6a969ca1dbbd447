import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BANK_ACCOUNT_MESSAGES } from '@schlosstreffen/shared';
import type { AdminEdition } from '@schlosstreffen/shared/api';
import { createEdition } from '../../core/editions/editions.js';
import { redrawShareImages } from '../../core/public-list/share-image.js';
import {
  createTestContext,
  insertListedVehicle,
  type SignedIn,
  type TestContext,
} from '../../testing/index.js';

let t: TestContext;
let admin: SignedIn;
beforeAll(async () => {
  t = await createTestContext({ relay: false });
  admin = await t.signIn('admin', { firstName: 'Anna' });
});
afterAll(() => t?.close());

const byYear = (editions: AdminEdition[], year: number) => editions.find((edition) => edition.year === year)!;

/** The cars whose link preview is queued (outbox rows not yet published), each as often as queued. */
async function queuedPreviews(): Promise<string[]> {
  const rows = await t.orm.em.getConnection().execute<{ vehicle_id: string }[]>(
    `select payload->>'vehicleId' as vehicle_id from outbox
        where job = 'share-image.render' and published_at is null order by 1`,
  );
  return rows.map((row) => row.vehicle_id);
}

describe("'Ausgaben'", () => {
  it('creates the next edition from the last one, refuses bad input in German, opens it and makes it current', async () => {
    const start = await admin.client.get('/api/admin/editions');
    expect(start.status).toBe(200);
    expect(start.data.editions).toEqual([
      expect.objectContaining({ year: 2026, name: 'Schlosstreffen 2026', current: true, applications: 0 }),
    ]);

    const created = await admin.client.post('/api/admin/editions', { year: 2027, deadline: '2027-04-15' });
    expect(created.status, created.text).toBe(201);
    expect(created.data.message).toBe('Schlosstreffen 2027 ist angelegt.');
    const next = byYear(created.data.editions, 2027);
    expect(next).toMatchObject({
      phase: 'preparation',
      current: false,
      applicationDeadline: '2027-04-15',
      startsAt: '2027-06-20T08:00:00.000Z',
      parkingZones: byYear(created.data.editions, 2026).parkingZones,
    });

    const refusals: Array<[unknown, number, string]> = [
      [{ year: 2027 }, 409, 'Die Ausgabe 2027 gibt es bereits.'],
      [{ year: 1800 }, 400, 'Das Jahr muss zwischen 2000 und 2100 liegen.'],
      [
        { year: 2028, deadline: '15.04.2028' },
        400,
        'Bitte gib den Bewerbungsschluss als Datum an (JJJJ-MM-TT).',
      ],
      [{ year: 2028, deadline: '2028-07-01' }, 400, 'Der Bewerbungsschluss muss vor dem Beginn liegen.'],
      [
        { year: 2028, start: 'morgen' },
        400,
        'Bitte gib Datum und Uhrzeit an (z. B. 2027-06-19T10:00:00+02:00).',
      ],
    ];
    for (const [body, status, message] of refusals) {
      const res = await admin.client.post('/api/admin/editions', body);
      expect([res.status, res.data.message]).toEqual([status, message]);
    }

    // Everything of the new edition is editable: zones, periods, place, dates.
    const changed = await admin.client.patch('/api/admin/editions/2027', {
      place: 'Schlossgarten, Sachsen',
      start: '2027-06-12T08:00:00Z',
      end: '2027-06-12T18:00:00Z',
      parkingZones: [
        { name: 'Nord', capacity: 40 },
        { name: 'Süd', capacity: 20 },
      ],
      confirmDays: 10,
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.data.message).toBe('Schlosstreffen 2027 ist gespeichert.');
    expect(byYear(changed.data.editions, 2027)).toMatchObject({
      place: 'Schlossgarten, Sachsen',
      startsAt: '2027-06-12T08:00:00.000Z',
      parkingZones: [
        { name: 'Nord', capacity: 40 },
        { name: 'Süd', capacity: 20 },
      ],
      confirmDays: 10,
      reminderDays: 3,
    });
    const editRefusals: Array<[unknown, string]> = [
      [
        { parkingZones: [] },
        'Bitte gib die Parkzonen als „Name:Kapazität“ an, durch Kommas getrennt (z. B. A:30, B:25).',
      ],
      [
        {
          parkingZones: [
            { name: 'A', capacity: 1 },
            { name: 'A', capacity: 2 },
          ],
        },
        'Jede Parkzone braucht einen eigenen Namen.',
      ],
      [{ confirmDays: -1 }, 'Bitte gib die Tage als ganze Zahl von 0 bis 365 an.'],
      [{ end: '2027-06-11T18:00:00Z' }, 'Das Ende muss nach dem Beginn liegen.'],
    ];
    for (const [body, message] of editRefusals) {
      const res = await admin.client.patch('/api/admin/editions/2027', body);
      expect([res.status, res.data.message]).toEqual([400, message]);
    }

    const opened = await admin.client.post('/api/admin/editions/2027/open', {});
    expect(opened.status).toBe(200);
    expect(opened.data.message).toBe('Die Bewerbung für Schlosstreffen 2027 ist geöffnet.');
    expect(byYear(opened.data.editions, 2027).phase).toBe('open');

    // Set ahead: the public site keeps showing 2026 until then.
    const ahead = await admin.client.post('/api/admin/editions/2027/current', { at: '2099-01-01T00:00:00Z' });
    expect(ahead.status).toBe(200);
    expect(byYear(ahead.data.editions, 2026).current).toBe(true);
    expect((await t.client().get('/api/vehicles/public')).status).toBe(200);

    const now = await admin.client.post('/api/admin/editions/2027/current', {});
    expect(now.data.message).toBe('Schlosstreffen 2027 ist jetzt die aktuelle Ausgabe.');
    expect(byYear(now.data.editions, 2027).current).toBe(true);
    expect(byYear(now.data.editions, 2026).phase).toBe('archived');

    const unknown = await admin.client.post('/api/admin/editions/2031/open', {});
    expect([unknown.status, unknown.data.message]).toEqual([404, 'Eine Ausgabe 2031 gibt es nicht.']);
    const frozen = await admin.client.patch('/api/admin/editions/2026', { place: 'Anderswo' });
    expect([frozen.status, frozen.data.message]).toEqual([
      409,
      'Die Ausgabe 2026 ist archiviert und kann nicht mehr geändert werden.',
    ]);
    const archived = await admin.client.post('/api/admin/editions/2026/open', {});
    expect([archived.status, archived.data.message]).toEqual([
      409,
      'Die Ausgabe 2026 ist archiviert und kann nicht mehr geändert werden.',
    ]);
  });
});

describe('renaming an edition', () => {
  it('queues the link previews of its listed cars in the same change, none of a car not on the list', async () => {
    const listed = [await insertListedVehicle(t, 'Porsche'), await insertListedVehicle(t, 'BMW')].sort();
    // Confirmed, its owner's consent to show it withdrawn: off the list.
    const unlisted = await insertListedVehicle(t, 'Audi');
    await t.orm.em.getConnection().execute(`delete from public_vehicle where vehicle_id = ?`, [unlisted]);
    await t.orm.em.getConnection().execute(`delete from outbox`);

    const renamed = await admin.client.patch('/api/admin/editions/2027', {
      name: '  Schlosstreffen am See 2027 ',
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.data.message).toBe('Schlosstreffen am See 2027 ist gespeichert.');
    expect(byYear(renamed.data.editions, 2027).name).toBe('Schlosstreffen am See 2027');
    expect(await queuedPreviews()).toEqual(listed);
    expect(await queuedPreviews()).not.toContain(unlisted);

    // The same name again, or another field: nothing more is drawn.
    for (const body of [{ name: 'Schlosstreffen am See 2027' }, { place: 'Schlosspark, Sachsen' }]) {
      expect((await admin.client.patch('/api/admin/editions/2027', body)).status).toBe(200);
    }
    expect(await queuedPreviews()).toEqual(listed);
    const refused = await admin.client.patch('/api/admin/editions/2027', { name: ' X ' });
    expect([refused.status, refused.data.message]).toEqual([
      400,
      'Bitte gib den Namen der Ausgabe an (2 bis 100 Zeichen, z. B. Schlosstreffen 2027).',
    ]);

    // After a release that changed the drawing (share-images:redraw): every listed car's once more.
    await t.orm.em.getConnection().execute(`delete from outbox`);
    expect(await redrawShareImages(t.orm.em.fork(), 2027)).toBe(2);
    expect(await redrawShareImages(t.orm.em.fork())).toBe(2);
    expect(await queuedPreviews()).toEqual([...listed, ...listed].sort());
    await expect(redrawShareImages(t.orm.em.fork(), 1999)).rejects.toThrow(
      'Eine Ausgabe 1999 gibt es nicht.',
    );
  });
});

describe("an edition's participation fee ('Teilnahmegebühr')", () => {
  const FEE = {
    amountCents: 2500,
    accountHolder: 'Schlosstreffen e. V.',
    iban: 'DE89 3704 0044 0532 0130 00',
    bic: 'COBADEFFXXX',
    payWithinDays: 7,
    refund: { fullUntil: '2030-05-31', keepCents: 500 },
  };
  const feeOf = async (year: number) =>
    byYear((await admin.client.get('/api/admin/editions')).data.editions as AdminEdition[], year).fee;

  it('is set, kept when absent, removed by null, refused in German when wrong, and copied with the edition', async () => {
    await createEdition(t.orm.em.fork(), { year: 2030 });
    expect(await feeOf(2030)).toBeNull();

    const set = await admin.client.patch('/api/admin/editions/2030', { fee: FEE });
    expect(set.status, set.text).toBe(200);
    expect(await feeOf(2030)).toEqual({ ...FEE, iban: 'DE89370400440532013000' });

    // Another change leaves the fee as it is.
    expect((await admin.client.patch('/api/admin/editions/2030', { place: 'Schlosspark' })).status).toBe(200);
    expect((await feeOf(2030))?.amountCents).toBe(2500);

    // A typo in the IBAN: its checksum fails, the fee stays.
    const typo = await admin.client.patch('/api/admin/editions/2030', {
      fee: { ...FEE, iban: 'DE89 3704 0044 0532 0130 01' },
    });
    expect(typo.status).toBe(400);
    expect(typo.text).toContain(BANK_ACCOUNT_MESSAGES.ibanChecksum);
    expect((await feeOf(2030))?.iban).toBe('DE89370400440532013000');

    // The next edition starts with it.
    await createEdition(t.orm.em.fork(), { year: 2031 });
    expect((await feeOf(2031))?.amountCents).toBe(2500);

    // null: no fee any more.
    expect((await admin.client.patch('/api/admin/editions/2030', { fee: null })).status).toBe(200);
    expect(await feeOf(2030)).toBeNull();
  });
});
