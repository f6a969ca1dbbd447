import { APPLICATION_CSV_HEADER } from '@schlosstreffen/shared';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Invitation } from '../../core/model/invitation.entity.js';
import { issueInvitation } from '../../core/invitations/invitation.issue.js';
import { createTestContext, createVehicle, type SignedIn, type TestContext } from '../../testing/index.js';

let t: TestContext;
let admin: SignedIn;
let reviewer: SignedIn;
let owner: SignedIn;
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestContext({
    relay: false,
    // A future event, so the invitation gets a confirm-by date.
    env: { EVENT_START: '2027-06-19T08:00:00.000Z', EVENT_END: '2027-06-20T16:00:00.000Z' },
  });
  admin = await t.signIn('admin');
  reviewer = await t.signIn('reviewer');
  owner = await t.signIn('user', {
    firstName: '=HYPERLINK("http://evil.test","Klick")',
    lastName: 'Größe-Ärger',
  });
  const submitted = { status: 'submitted' };
  ids.golf = (
    await createVehicle(owner.client, { ...submitted, brand: 'Volkswagen', model: 'Golf II GTI' })
  ).id;
  ids.corrado = (await createVehicle(owner.client, { ...submitted, brand: 'VW', model: 'Corrado VR6' })).id;
  ids.evil = (
    await createVehicle(owner.client, { ...submitted, brand: 'Opel', model: '+Manta', name: '@SUM(A1:A9)' })
  ).id;
  ids.draft = (await createVehicle(owner.client, { brand: 'Volkswagen', model: 'Käfer' })).id;
  const invite = await admin.client.patch(`/api/admin/vehicles/${ids.golf}/status`, {
    status: 'invited',
    oldStatus: 'submitted',
    score: 7,
  });
  expect(invite.status).toBe(200);
  await issueInvitation(t.orm.em, ids.golf, {
    event: t.event,
    publicUrl: t.config.publicUrl,
    secret: t.config.sessionSecret,
    asOf: new Date('2027-01-10T10:00:00.000Z'),
  });
});
afterAll(() => t?.close());

async function download(query = '') {
  const res = await fetch(`${t.baseUrl}/api/admin/vehicles.csv${query}`, {
    headers: { Cookie: admin.client.cookieHeader },
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  return { res, bytes, rows: parse(bytes, { delimiter: ';', bom: true }) as string[][] };
}

describe('GET /api/admin/vehicles.csv', () => {
  it('is UTF-8 with BOM, semicolons and a header; every application with status, score, start number, zone and confirm-by date', async () => {
    const { res, bytes, rows } = await download();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(
      // The edition's year, then the day of the export.
      new RegExp(`^attachment; filename="bewerbungen-${t.event.edition.year}-\\d{4}-\\d{2}-\\d{2}\\.csv"$`),
    );
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.toString('utf8')).toContain('\r\n');
    expect(rows[0]).toEqual([...APPLICATION_CSV_HEADER]);
    expect(rows).toHaveLength(5);
    const column = (name: (typeof APPLICATION_CSV_HEADER)[number]) => APPLICATION_CSV_HEADER.indexOf(name);
    const golf = rows.find((row) => row[0] === ids.golf)!;
    const invitation = await t.orm.em.fork().findOneOrFail(Invitation, { vehicle: ids.golf });
    expect(golf[column('Status')]).toBe('Eingeladen');
    expect(golf[column('Bewertung')]).toBe('7');
    expect(golf[column('Startnummer')]).toBe(String(invitation.startNumber));
    expect(golf[column('Parkzone')]).toBe('A');
    // 14 days after issue, at the venue.
    expect(golf[column('Bestätigen bis')]).toBe('24.01.2027, 11:00 Uhr');
    expect(golf[column('Einladung')]).toBe('gültig');
    expect(golf[column('Nachname')]).toBe('Größe-Ärger');
    expect(rows.find((row) => row[0] === ids.draft)![column('Status')]).toBe('Entwurf');
  });

  it('neutralises cells a spreadsheet would run as formulas', async () => {
    const { rows } = await download();
    const evil = rows.find((row) => row[0] === ids.evil)!;
    expect(evil[APPLICATION_CSV_HEADER.indexOf('Modell')]).toBe("'+Manta");
    expect(evil[APPLICATION_CSV_HEADER.indexOf('Name')]).toBe("'@SUM(A1:A9)");
    expect(evil[APPLICATION_CSV_HEADER.indexOf('Vorname')]).toBe('\'=HYPERLINK("http://evil.test","Klick")');
    for (const row of rows) for (const cell of row) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
  });

  it('filters like the dashboard: status tab and case-insensitive search on brand or model', async () => {
    const vw = await download('?q=vw');
    expect(vw.rows.slice(1).map((row) => row[0])).toEqual([ids.corrado]);
    const volks = await download('?q=VOLKS&status=submitted');
    expect(volks.rows.slice(1).map((row) => row[0])).toEqual([]);
    const all = await download('?q=volks');
    expect(
      all.rows
        .slice(1)
        .map((row) => row[0])
        .sort(),
    ).toEqual([ids.golf, ids.draft].sort());
    const invited = await download('?status=invited');
    expect(invited.rows.slice(1).map((row) => row[0])).toEqual([ids.golf]);
    // A wildcard in the search is a character, not a pattern.
    expect((await download('?q=%25')).rows).toHaveLength(1);
  });

  it('is for reviewers and admins only', async () => {
    expect((await reviewer.client.get('/api/admin/vehicles.csv')).status).toBe(200);
    expect((await owner.client.get('/api/admin/vehicles.csv')).status).toBe(403);
    expect((await t.client().get('/api/admin/vehicles.csv')).status).toBe(401);
  });
});
