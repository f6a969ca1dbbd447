import { CONSENTS } from '@schlosstreffen/shared';
import type { CarPage, Consent, LookBack } from '@schlosstreffen/shared/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCar } from '../../testing/car-pages.js';
import { createTestContext, EVENT_DAY_NOON, type TestClient, type TestContext } from '../../testing/index.js';

let t: TestContext;
let clock = EVENT_DAY_NOON;
let anon: TestClient;
let owner: TestClient;
let ownerId: string;
let other: TestClient;
let year: number;

beforeAll(async () => {
  t = await createTestContext({ relay: false, now: () => clock });
  anon = t.client();
  ({ id: ownerId, client: owner } = await t.signIn('user', {
    firstName: 'Lena',
    lastName: 'Weber',
    instagramHandle: 'lena.gti16v',
  }));
  other = (await t.signIn('user')).client;
  year = t.event.edition.year;
});
afterAll(() => t?.close());

const pageOf = (startNumber: number, client = anon) =>
  client.get(`/api/editions/${year}/vehicles/${startNumber}`);

describe('GET /api/editions/:year/vehicles/:startNumber', () => {
  it('shows a confirmed car with media consent as listed, with all its photos, data and story', async () => {
    const car = await insertCar(t, {
      ownerId,
      name: 'Weißer Blitz',
      photos: 3,
      story: 'Seit 1998 in der Familie.',
    });
    const res = await pageOf(car.startNumber);
    expect(res.status, res.text).toBe(200);
    // It carries the voting's state: shared caches revalidate it on every use.
    expect(res.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');
    const page = res.data as CarPage;
    expect(page).toMatchObject({
      edition: { year, name: t.event.edition.name },
      startNumber: car.startNumber,
      brand: 'Audi',
      model: 'Sport Quattro',
      story: 'Seit 1998 in der Familie.',
      // Not allowed by the owner.
      instagramHandle: null,
    });
    expect(page.vehicle).toMatchObject({ name: 'Weißer Blitz', ps: 306, topSpeedKmh: 250, cylinders: 5 });
    expect(page.vehicle!.media).toHaveLength(3);
    expect(page.vehicle!.hero?.isHero).toBe(true);
    // No owner data beyond what the page may show.
    expect(res.text).not.toContain('Weber');
    expect(res.text).not.toContain('lena.gti16v');
  });

  it('shows the Instagram name only while the owner allows it, and they may take it back', async () => {
    const car = await insertCar(t, { ownerId, photos: 1 });
    const given = await owner.post(`/api/vehicles/${car.vehicleId}/consents/instagram`, {});
    expect(given.status, given.text).toBe(201);
    const consent = given.data as Consent;
    expect(consent).toMatchObject({
      kind: 'instagram',
      version: CONSENTS.instagram.version,
      wording: CONSENTS.instagram.text,
      source: 'dashboard',
      withdrawnAt: null,
    });
    expect(((await pageOf(car.startNumber)).data as CarPage).instagramHandle).toBe('@lena.gti16v');

    // Nobody else gives it for them.
    expect((await other.post(`/api/vehicles/${car.vehicleId}/consents/instagram`, {})).status).toBe(404);

    const withdrawn = await owner.post(`/api/account/consents/${consent.id}/withdraw`, {});
    expect(withdrawn.status, withdrawn.text).toBe(200);
    expect(((await pageOf(car.startNumber)).data as CarPage).instagramHandle).toBeNull();
  });

  it('gives a car without media consent only its number, brand and model', async () => {
    const car = await insertCar(t, { ownerId, photos: 2, instagram: true, story: 'Geheim.' });
    const res = await pageOf(car.startNumber);
    expect(res.status, res.text).toBe(200);
    expect(res.data).toMatchObject({
      startNumber: car.startNumber,
      brand: 'Audi',
      model: 'Sport Quattro',
      vehicle: expect.anything(),
    });
    const hidden = await insertCar(t, {
      ownerId,
      photos: 2,
      withoutMedia: true,
      instagram: true,
      story: 'Geheim.',
    });
    const page = (await pageOf(hidden.startNumber)).data as CarPage;
    expect(page).toEqual({
      edition: expect.objectContaining({ year }),
      startNumber: hidden.startNumber,
      brand: 'Audi',
      model: 'Sport Quattro',
      vehicle: null,
      story: null,
      instagramHandle: null,
      shareImageUrl: null,
      award: { state: 'not_open', opensAt: null, closesAt: null, maxVotes: 3 },
      juryPlaces: [],
    });
  });

  it('answers 404 for a number no confirmed car holds', async () => {
    const invited = await insertCar(t, { ownerId, photos: 1, status: 'invited' });
    const missing = await pageOf(invited.startNumber);
    expect(missing.status).toBe(404);
    // Not kept by any cache: the number may be given any moment.
    expect(missing.headers.get('cache-control') ?? '').not.toContain('public');
    expect((await pageOf(9999)).status).toBe(404);
    expect((await anon.get(`/api/editions/${year + 5}/vehicles/1`)).status).toBe(404);
    expect((await anon.get(`/api/editions/${year}/vehicles/eins`)).status).toBe(400);
  });

  it("shows a past edition's car as recorded once its meeting is over", async () => {
    const car = await insertCar(t, { ownerId, name: 'Alter Bekannter', photos: 1 });
    clock = new Date(EVENT_DAY_NOON.getTime() + 30 * 24 * 3600_000);
    try {
      const res = await pageOf(car.startNumber);
      expect(res.status, res.text).toBe(200);
      expect((res.data as CarPage).vehicle?.name).toBe('Alter Bekannter');
      // The look back links its cars to their pages by their numbers.
      const back = await anon.get(`/api/editions/${year}/look-back`);
      expect(back.status, back.text).toBe(200);
      expect((back.data as LookBack).startNumbers[car.vehicleId]).toBe(car.startNumber);
      // Its record is frozen: the owner can no longer add the Instagram name, nor change the car.
      expect((await owner.post(`/api/vehicles/${car.vehicleId}/consents/instagram`, {})).status).toBe(409);
      expect((await owner.patch(`/api/vehicles/${car.vehicleId}`, { name: 'Neu' })).status).toBe(409);
    } finally {
      clock = EVENT_DAY_NOON;
    }
  });

  it("shows the edition's voting as anyone sees it, and none after a meeting without it", async () => {
    const car = await insertCar(t, { ownerId, photos: 1 });
    const awardOf = async () => {
      const res = await pageOf(car.startNumber);
      expect(res.status, res.text).toBe(200);
      return (res.data as CarPage).award;
    };
    const endsAt = ((await pageOf(car.startNumber)).data as CarPage).edition.endsAt;
    expect(endsAt).toBe(t.event.end.toISOString());
    const afterMeeting = new Date(Date.parse(endsAt) + 3600_000);

    // Never opened: not yet before the meeting's end, none after it.
    expect(await awardOf()).toEqual({ state: 'not_open', opensAt: null, closesAt: null, maxVotes: 3 });
    clock = afterMeeting;
    try {
      expect(await awardOf()).toBeNull();
    } finally {
      clock = EVENT_DAY_NOON;
    }

    const admin = (await t.signIn('admin')).client;
    const opensAt = new Date(EVENT_DAY_NOON.getTime() + 3600_000).toISOString();
    expect((await admin.patch(`/api/admin/award/${year}`, { opensAt, closesAt: null })).status).toBe(200);
    expect(await awardOf()).toEqual({ state: 'not_open', opensAt, closesAt: null, maxVotes: 3 });
    // Opened at its set moment: after the meeting it ended, though no tick recorded the opening.
    clock = afterMeeting;
    try {
      expect(await awardOf()).toMatchObject({ state: 'closed', opensAt, closesAt: endsAt });
    } finally {
      clock = EVENT_DAY_NOON;
    }

    expect((await admin.post(`/api/admin/award/${year}/open`, {})).status).toBe(200);
    // Open until the meeting's end unless a closing is set.
    expect(await awardOf()).toEqual({ state: 'open', opensAt, closesAt: endsAt, maxVotes: 3 });
    clock = afterMeeting;
    try {
      expect(await awardOf()).toMatchObject({ state: 'closed', closesAt: endsAt });
    } finally {
      clock = EVENT_DAY_NOON;
    }

    expect((await admin.post(`/api/admin/award/${year}/close`, {})).status).toBe(200);
    expect(await awardOf()).toMatchObject({ state: 'closed' });
    // Voting took place: the page keeps saying it ended.
    clock = afterMeeting;
    try {
      expect(await awardOf()).toMatchObject({ state: 'closed' });
    } finally {
      clock = EVENT_DAY_NOON;
    }
  });
});
