import { createPublicKey, randomUUID, verify } from 'node:crypto';
import {
  chunked,
  GATE_CLOCK_TOLERANCE_MS,
  GATE_SYNC_MAX_SCANS,
  CHECK_IN_MESSAGES,
  type VehicleStatus,
} from '@schlosstreffen/shared';
import type { ArrivalsBoard, GateEntryData, GateList, GateSyncResult } from '@schlosstreffen/shared/api';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { User } from '../../core/model/user.entity.js';
import { checkInCodeHash } from '../../core/check-in/gate-list.js';
import { Invitation } from '../../core/model/invitation.entity.js';
import { issueInvitation } from '../../core/invitations/invitation.issue.js';
import { Vehicle } from '../../core/model/vehicle.entity.js';
import { createTestContext, EVENT_DAY_NOON, type TestClient, type TestContext } from '../../testing/index.js';

let t: TestContext;
/** The server's clock: the event day unless a test moves it. */
let clock = EVENT_DAY_NOON;
let ownerId: string;
let anon: TestClient;
let owner: TestClient;
let user: TestClient;
let reviewer: TestClient;
let admin: TestClient;

beforeAll(async () => {
  t = await createTestContext({ relay: false, now: () => clock });
  anon = t.client();
  ({ id: ownerId, client: owner } = await t.signIn('user', {
    firstName: 'Olaf',
    lastName: 'Test',
    phone: '+49 170 1234567',
  }));
  user = (await t.signIn('user', { firstName: 'Udo', lastName: 'Test' })).client;
  reviewer = (await t.signIn('reviewer', { firstName: 'Rita', lastName: 'Tor' })).client;
  admin = (await t.signIn('admin', { firstName: 'Anna', lastName: 'Tor' })).client;
});
afterAll(() => t?.close());
beforeEach(() => t.resetRateLimits());

/** A car with an issued invitation in the given status. */
async function car(name: string, status: VehicleStatus = 'confirmed') {
  const em = t.orm.em.fork();
  const vehicle = em.create(Vehicle, {
    edition: t.event.edition.id,
    user: em.getReference(User, ownerId),
    title: name,
    name,
    brand: 'Audi',
    model: 'Sport Quattro',
    year: 1984,
    color: 'Weiß',
    ps: 306,
    weightKg: 1300,
    topSpeedKmh: 250,
    zeroToHundredS: 4.8,
    status: 'invited',
  });
  await em.flush();
  const issued = await issueInvitation(t.orm.em, vehicle.id, {
    event: t.event,
    publicUrl: t.config.publicUrl,
    secret: t.config.sessionSecret,
    jobId: randomUUID(),
  });
  if (status !== 'invited') await t.orm.em.fork().nativeUpdate(Vehicle, { id: vehicle.id }, { status });
  return { vehicleId: vehicle.id, invitation: issued!.invitation };
}

/** The list's raw Ed25519 public key as a key object (SPKI wrapping). */
const publicKeyOf = (list: GateList) =>
  createPublicKey({
    key: Buffer.concat([
      Buffer.from('302a300506032b6570032100', 'hex'),
      Buffer.from(list.publicKey, 'base64'),
    ]),
    format: 'der',
    type: 'spki',
  });

function verifiedEntries(list: GateList): GateEntryData[] {
  const key = publicKeyOf(list);
  return list.entries.map((entry) => {
    expect(verify(null, Buffer.from(entry.data), key, Buffer.from(entry.sig, 'base64'))).toBe(true);
    return JSON.parse(entry.data) as GateEntryData;
  });
}

const sync = (client: TestClient, deviceId: string, gate: string, scans: object[]) =>
  client.post('/api/admin/check-in/sync', { deviceId, gate, scans });

describe('POST /api/admin/check-in', () => {
  it('is for reviewers and admins only', async () => {
    expect((await anon.post('/api/admin/check-in', { code: '1' })).status).toBe(401);
    expect((await user.post('/api/admin/check-in', { code: '1' })).status).toBe(403);
    expect((await owner.post('/api/admin/check-in', { code: '1' })).status).toBe(403);
  });

  it('checks a car in by its code once; a repeat is refused with the time of the first', async () => {
    const { vehicleId: id, invitation } = await car('Audi Quattro Online');
    const first = await reviewer.post('/api/admin/check-in', { code: `  ${invitation.qrCode} ` });
    expect(first.status, first.text).toBe(200);
    expect(first.data).toMatchObject({
      result: 'checked_in',
      message: CHECK_IN_MESSAGES.checked_in,
      startNumber: invitation.startNumber,
      parkingZone: invitation.parkingZone,
      checkedIn: true,
      vehicle: { id, title: expect.stringMatching(/^Audi Quattro/), year: 1984 },
      owner: { firstName: 'Olaf', lastName: 'Test' },
    });
    expect(first.data.owner).not.toHaveProperty('email');
    const row = await t.orm.em.fork().findOneOrFail(Invitation, { id: invitation.id });
    expect(row.checkedIn).toBe(true);
    expect(row.checkedInAt?.toISOString()).toBe(first.data.checkedInAt);

    const second = await admin.post('/api/admin/check-in', { code: invitation.qrCode });
    expect(second.status).toBe(409);
    const time = new Intl.DateTimeFormat('de-DE', {
      hour: '2-digit',
      minute: '2-digit',
      timeZone: 'Europe/Berlin',
    }).format(row.checkedInAt!);
    expect(second.data).toMatchObject({
      message: `Bereits eingecheckt um ${time} Uhr`,
      result: 'already_checked_in',
      checkedInAt: first.data.checkedInAt,
      startNumber: invitation.startNumber,
    });
    const after = await t.orm.em.fork().findOneOrFail(Invitation, { id: invitation.id });
    expect(after.checkedInAt?.getTime()).toBe(row.checkedInAt?.getTime());
  });

  it('finds a car by its start number', async () => {
    const { invitation } = await car('Audi Quattro Startnummer');
    const res = await reviewer.post('/api/admin/check-in', { code: String(invitation.startNumber) });
    expect(res.status).toBe(200);
    expect(res.data.startNumber).toBe(invitation.startNumber);
    expect(
      (await reviewer.post('/api/admin/check-in', { code: String(invitation.startNumber) })).status,
    ).toBe(409);
  });

  it('answers unknown codes with 404 and refuses vehicles that are no longer invited', async () => {
    for (const code of ['gibt-es-nicht', '999999', 'x'.repeat(32)]) {
      const res = await reviewer.post('/api/admin/check-in', { code });
      expect(res.status).toBe(404);
      expect(res.data.message).toBe(CHECK_IN_MESSAGES.unknown_code);
    }
    const empty = await reviewer.post('/api/admin/check-in', { code: '   ' });
    expect(empty.status).toBe(400);
    expect(empty.data.message).toBe(CHECK_IN_MESSAGES.codeRequired);
    expect((await reviewer.post('/api/admin/check-in', {})).data.message).toBe(
      CHECK_IN_MESSAGES.codeRequired,
    );

    const { invitation } = await car('Audi Quattro Abgelehnt', 'rejected');
    const refused = await reviewer.post('/api/admin/check-in', { code: invitation.qrCode });
    expect(refused.status).toBe(409);
    expect(refused.data.message).toBe(CHECK_IN_MESSAGES.not_admitted);
    expect((await t.orm.em.fork().findOneOrFail(Invitation, invitation.id)).checkedIn).toBe(false);
  });

  it('lets in only confirmed cars: an invitation not yet confirmed is refused as such', async () => {
    const { invitation } = await car('Audi Quattro Eingeladen', 'invited');
    const refused = await reviewer.post('/api/admin/check-in', { code: invitation.qrCode });
    expect(refused.status).toBe(409);
    expect(refused.data).toMatchObject({
      result: 'not_confirmed',
      message: CHECK_IN_MESSAGES.not_confirmed,
    });
    expect((await t.orm.em.fork().findOneOrFail(Invitation, invitation.id)).checkedIn).toBe(false);
  });
});

describe('the gate list', () => {
  it('holds per car only what the gate needs, signed; the code only as its hash', async () => {
    const confirmed = await car('Weiße Wand');
    const invited = await car('Rote Rakete', 'invited');
    const rejected = await car('Graue Maus', 'rejected');

    const res = await reviewer.get('/api/admin/check-in/list');
    expect(res.status).toBe(200);
    const list = res.data as GateList;
    const entries = verifiedEntries(list);
    const mine = entries.find((entry) => entry.id === confirmed.invitation.id)!;
    expect(mine).toEqual({
      id: confirmed.invitation.id,
      startNumber: confirmed.invitation.startNumber,
      name: 'Weiße Wand',
      brand: 'Audi',
      model: 'Sport Quattro',
      color: 'Weiß',
      zone: confirmed.invitation.parkingZone,
      codeHash: checkInCodeHash(confirmed.invitation.qrCode),
      confirmed: true,
      // The edition has no fee: nothing open.
      feeOpenCents: 0,
      checkedInAt: null,
      gate: null,
      validUntil: new Date(t.config.event.end.getTime() + 24 * 3600 * 1000).toISOString(),
    });
    expect(entries.find((entry) => entry.id === invited.invitation.id)?.confirmed).toBe(false);
    expect(entries.some((entry) => entry.id === rejected.invitation.id)).toBe(false);
    expect(list.total).toBe(entries.length);

    const raw = JSON.stringify(res.data);
    for (const secret of [confirmed.invitation.qrCode, invited.invitation.qrCode, 'Olaf', '1234567', '@']) {
      expect(raw).not.toContain(secret);
    }

    // An entry changed on the device fails its signature.
    const key = publicKeyOf(list);
    const tampered = list.entries[0]!.data.replace(/"confirmed":(true|false)/, '"confirmed":true ');
    expect(verify(null, Buffer.from(tampered), key, Buffer.from(list.entries[0]!.sig, 'base64'))).toBe(false);
  });

  it('sends only what changed since the cursor: a confirmation, and a car that left', async () => {
    const morning = await car('Frühaufsteher', 'invited');
    const leaving = await car('Abreiser');
    const first = (await reviewer.get('/api/admin/check-in/list')).data as GateList;
    const later = new Date(Date.now() + 120_000);

    await t.orm.em
      .fork()
      .nativeUpdate(Vehicle, { id: morning.vehicleId }, { status: 'confirmed', updatedAt: later });
    await t.orm.em
      .fork()
      .nativeUpdate(
        Invitation,
        { id: leaving.invitation.id },
        { releasedAt: later, releaseReason: 'declined' },
      );
    // The server looks a minute further back than the cursor; the cars of the test before lie earlier.
    const since = new Date(Date.now() + 70_000).toISOString();
    const delta = (await reviewer.get(`/api/admin/check-in/list?since=${encodeURIComponent(since)}`))
      .data as GateList;
    expect(delta.delta).toBe(true);
    expect(verifiedEntries(delta).map((entry) => [entry.name, entry.confirmed])).toEqual([
      ['Frühaufsteher', true],
    ]);
    expect(delta.removed).toEqual([leaving.invitation.id]);
    expect(delta.total).toBe(first.total - 1);

    const bad = await reviewer.get('/api/admin/check-in/list?since=gestern');
    expect(bad.status).toBe(400);
    expect(bad.data.message).toBe(CHECK_IN_MESSAGES.gateListCursor);
  });
});

describe('scans from several gates', () => {
  it('keeps each scan once, lets the earliest win and reports the later gate a duplicate', async () => {
    const one = await car('Eins');
    const two = await car('Zwei');
    const three = await car('Drei');
    const gateA = randomUUID();
    const gateB = randomUUID();
    const at = (minute: number) => new Date(Date.UTC(2026, 5, 20, 8, minute)).toISOString();
    const a1 = { id: randomUUID(), invitationId: one.invitation.id, scannedAt: at(1) };
    const a2 = { id: randomUUID(), invitationId: two.invitation.id, scannedAt: at(2) };
    const b2 = { id: randomUUID(), invitationId: two.invitation.id, scannedAt: at(5) };
    const b3 = { id: randomUUID(), invitationId: three.invitation.id, scannedAt: at(6) };

    // Gate B comes online first: its scan of car 2 counts until A's earlier one arrives.
    const bFirst = (await sync(reviewer, gateB, 'Tor B', [b2, b3])).data as GateSyncResult;
    expect(bFirst.scans.map((scan) => scan.result)).toEqual(['admitted', 'admitted']);
    const aResult = await sync(admin, gateA, 'Tor A', [a1, a2]);
    expect(aResult.status, aResult.text).toBe(200);
    expect((aResult.data as GateSyncResult).scans.map((scan) => scan.result)).toEqual([
      'admitted',
      'admitted',
    ]);
    // Sent again (a lost answer): nothing changes.
    expect(((await sync(admin, gateA, 'Tor A', [a1, a2])).data as GateSyncResult).scans).toHaveLength(2);

    const bLater = (await sync(reviewer, gateB, 'Tor B', [])).data as GateSyncResult;
    const duplicate = bLater.scans.find((scan) => scan.id === b2.id)!;
    expect(duplicate).toMatchObject({ result: 'duplicate', gate: 'Tor A', checkedInAt: at(2) });
    expect(duplicate.message).toBe(CHECK_IN_MESSAGES.duplicate('Tor A', '10:02'));
    expect(bLater.scans.find((scan) => scan.id === b3.id)?.result).toBe('admitted');

    const rows = await t.orm.em
      .fork()
      .find(Invitation, { id: [one.invitation.id, two.invitation.id, three.invitation.id] });
    expect(Object.fromEntries(rows.map((row) => [row.id, row.checkedInAt?.toISOString()]))).toEqual({
      [one.invitation.id]: at(1),
      [two.invitation.id]: at(2),
      [three.invitation.id]: at(6),
    });
    const [counted] = await t.orm.em
      .fork()
      .getConnection()
      .execute<Array<{ count: number }>>(
        `select count(*)::int as count from check_in_scan where invitation_id in (?, ?, ?)`,
        [one.invitation.id, two.invitation.id, three.invitation.id],
      );
    expect(counted?.count).toBe(4);

    const board = (await reviewer.get('/api/admin/arrivals')).data as ArrivalsBoard;
    expect(board.recent.filter((scan) => ['Eins', 'Zwei', 'Drei'].includes(scan.name))).toHaveLength(4);
    expect(board.recent.find((scan) => scan.name === 'Zwei' && scan.gate === 'Tor B')?.result).toBe(
      'duplicate',
    );
    expect(board.timeline.some((bucket) => bucket.at === at(0) && bucket.arrived >= 2)).toBe(true);
    expect(board.arrived).toBeGreaterThanOrEqual(3);

    const csv = await admin.get('/api/admin/vehicles.csv');
    const line = csv.text.split('\r\n').find((row) => row.includes(two.vehicleId))!;
    expect(line.endsWith(`;"20.06.2026, 10:02 Uhr";"Tor A"`)).toBe(true);
  });

  it('decides one sync in order: a car scanned twice is let in by the earlier scan, an id sent twice is kept once', async () => {
    const four = await car('Vier');
    const gate = randomUUID();
    const at = (minute: number) => new Date(Date.UTC(2026, 5, 20, 9, minute)).toISOString();
    const later = { id: randomUUID(), invitationId: four.invitation.id, scannedAt: at(7) };
    const earlier = { id: randomUUID(), invitationId: four.invitation.id, scannedAt: at(3) };
    const unknown = { id: randomUUID(), invitationId: randomUUID(), scannedAt: at(4) };
    const res = await sync(reviewer, gate, 'Tor C', [later, earlier, unknown, earlier]);
    expect(res.status, res.text).toBe(200);
    const scans = (res.data as GateSyncResult).scans;
    expect(scans.find((scan) => scan.id === earlier.id)?.result).toBe('admitted');
    expect(scans.find((scan) => scan.id === later.id)).toMatchObject({ result: 'duplicate', gate: 'Tor C' });
    expect(scans.find((scan) => scan.id === unknown.id)?.result).toBe('refused');
    const row = await t.orm.em.fork().findOneOrFail(Invitation, four.invitation.id);
    expect(row.checkedInAt?.toISOString()).toBe(at(3));
    expect(row.checkedInScanId).toBe(earlier.id);
  });

  it('takes two gates syncing the same cars at once without a deadlock; the earliest scan wins', async () => {
    const cars = await Promise.all(['Fünf', 'Sechs', 'Sieben'].map((name) => car(name)));
    const at = (minute: number) => new Date(Date.UTC(2026, 5, 20, 10, minute)).toISOString();
    // Each gate names the cars in another order; A's scans are the earlier ones.
    const scansOf = (offset: number, order: number[]) =>
      order.map((index) => ({
        id: randomUUID(),
        invitationId: cars[index]!.invitation.id,
        scannedAt: at(offset + index),
      }));
    const [a, b] = await Promise.all([
      sync(reviewer, randomUUID(), 'Tor D', scansOf(0, [0, 1, 2])),
      sync(admin, randomUUID(), 'Tor E', scansOf(10, [2, 1, 0])),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const rows = await t.orm.em.fork().find(Invitation, { id: cars.map((one) => one.invitation.id) });
    for (const [index, one] of cars.entries()) {
      expect(rows.find((row) => row.id === one.invitation.id)?.checkedInAt?.toISOString()).toBe(at(index));
    }
  });

  it('answers a sync that names its last cursor only with what changed since, and every scan it sends', async () => {
    const one = await car('Stand Eins');
    const two = await car('Stand Zwei');
    const three = await car('Stand Drei');
    const device = randomUUID();
    const at = (minute: number) => new Date(Date.UTC(2026, 5, 20, 9, minute)).toISOString();
    const later = (minutes: number) => new Date(EVENT_DAY_NOON.getTime() + minutes * 60_000);
    const s1 = { id: randomUUID(), invitationId: one.invitation.id, scannedAt: at(1) };
    const s2 = { id: randomUUID(), invitationId: two.invitation.id, scannedAt: at(2) };
    const s3 = { id: randomUUID(), invitationId: three.invitation.id, scannedAt: at(3) };
    const syncSince = async (since: string | undefined, scans: object[]) => {
      const res = await reviewer.post('/api/admin/check-in/sync', {
        deviceId: device,
        gate: 'Tor S',
        since,
        scans,
      });
      expect(res.status, res.text).toBe(200);
      return res.data as GateSyncResult;
    };
    try {
      const first = await syncSince(undefined, [s1, s2]);
      expect(first.scans.map((scan) => [scan.id, scan.result])).toEqual([
        [s1.id, 'admitted'],
        [s2.id, 'admitted'],
      ]);
      expect(first.cursor).toBe(EVENT_DAY_NOON.toISOString());

      // Five minutes on: only the new scan; the two before did not change.
      clock = later(5);
      const second = await syncSince(first.cursor, [s3]);
      expect(second.scans.map((scan) => [scan.id, scan.result])).toEqual([[s3.id, 'admitted']]);
      expect(second.cursor).toBe(later(5).toISOString());

      // Another gate was earlier with car two: that change, and only it, comes with the next sync.
      clock = later(10);
      await sync(admin, randomUUID(), 'Tor Z', [
        { id: randomUUID(), invitationId: two.invitation.id, scannedAt: at(0) },
      ]);
      clock = later(15);
      const third = await syncSince(second.cursor, []);
      expect(third.scans.map((scan) => [scan.id, scan.result, scan.gate])).toEqual([
        [s2.id, 'duplicate', 'Tor Z'],
      ]);

      // A resend (a lost answer) is answered again, and changes nothing.
      clock = later(20);
      const resent = await syncSince(third.cursor, [s1]);
      expect(resent.scans.map((scan) => [scan.id, scan.result])).toEqual([[s1.id, 'admitted']]);
      expect(await syncSince(resent.cursor, [])).toEqual({
        scans: [],
        visitorScans: [],
        cursor: resent.cursor,
      });

      const bad = await reviewer.post('/api/admin/check-in/sync', {
        deviceId: device,
        gate: 'Tor S',
        since: 'gestern',
        scans: [],
      });
      expect(bad.status).toBe(400);
      expect(bad.data.message).toBe(CHECK_IN_MESSAGES.gateSyncCursor);
    } finally {
      clock = EVENT_DAY_NOON;
    }
  });

  it('refuses a car that is not confirmed or no longer invited, and keeps no scan of it', async () => {
    const waiting = await car('Wartend', 'invited');
    const gone = await car('Weg', 'rejected');
    const device = randomUUID();
    const scannedAt = EVENT_DAY_NOON.toISOString();
    const res = await sync(reviewer, device, 'Tor C', [
      { id: randomUUID(), invitationId: waiting.invitation.id, scannedAt },
      { id: randomUUID(), invitationId: gone.invitation.id, scannedAt },
      { id: randomUUID(), invitationId: randomUUID(), scannedAt },
    ]);
    expect(res.status).toBe(200);
    expect((res.data as GateSyncResult).scans.map((scan) => [scan.result, scan.reason])).toEqual([
      ['refused', 'not_admitted'],
      ['refused', 'not_admitted'],
      ['refused', 'not_admitted'],
    ]);
    const rows = await t.orm.em.fork().find(Invitation, { id: [waiting.invitation.id, gone.invitation.id] });
    expect(rows.every((row) => !row.checkedIn)).toBe(true);

    const tooLong = await sync(reviewer, device, 'x'.repeat(41), []);
    expect(tooLong.status).toBe(400);
    expect(tooLong.data.message).toBe(CHECK_IN_MESSAGES.gateMax);
  });
});

describe('the gate window', () => {
  const DAY = 24 * 3600 * 1000;
  const minutes = (n: number) => n * 60 * 1000;
  const checkedIn = async (...ids: string[]) =>
    (await t.orm.em.fork().find(Invitation, { id: ids })).filter((row) => row.checkedIn).length;
  const scansOf = async (invitationId: string) =>
    (
      await t.orm.em
        .fork()
        .getConnection()
        .execute<Array<{ count: number }>>(
          `select count(*)::int as count from check_in_scan where invitation_id = ?`,
          [invitationId],
        )
    )[0]?.count;

  it('opens at 00:00 at the venue on the event day and closes with the event', () => {
    expect(t.config.event.gateOpensAt.toISOString()).toBe('2026-06-19T22:00:00.000Z');
    expect(t.config.event.end.toISOString()).toBe('2026-06-20T18:00:00.000Z');
    expect(GATE_CLOCK_TOLERANCE_MS).toBe(minutes(15));
  });

  it('refuses scans dated a year before the event or in 2000, in German; the car stays out until a real scan', async () => {
    const target = await car('Zeitreisender');
    const device = randomUUID();
    const yearBefore = {
      id: randomUUID(),
      invitationId: target.invitation.id,
      scannedAt: new Date(t.config.event.start.getTime() - 365 * DAY).toISOString(),
    };
    const y2k = {
      id: randomUUID(),
      invitationId: target.invitation.id,
      scannedAt: '2000-01-01T00:00:00.000Z',
    };
    // Sent five months after the event.
    clock = new Date(t.config.event.end.getTime() + 150 * DAY);
    try {
      for (let attempt = 0; attempt < 2; attempt++) {
        const res = await sync(reviewer, device, 'Tor X', [yearBefore, y2k]);
        expect(res.status, res.text).toBe(200);
        expect((res.data as GateSyncResult).scans).toEqual([
          {
            id: y2k.id,
            invitationId: target.invitation.id,
            result: 'refused',
            reason: 'outside_window',
            checkedInAt: null,
            gate: null,
            message:
              'Außerhalb der Einlasszeit: Scan vom 01.01.2000, 01:00 Uhr nicht übernommen. Eingecheckt wird ' +
              'vom 20.06.2026, 00:00 Uhr bis 20.06.2026, 20:00 Uhr. Bitte die Uhrzeit des Geräts prüfen.',
          },
          {
            id: yearBefore.id,
            invitationId: target.invitation.id,
            result: 'refused',
            reason: 'outside_window',
            checkedInAt: null,
            gate: null,
            message: CHECK_IN_MESSAGES.scanOutsideWindow(
              '20.06.2025, 10:00 Uhr',
              '20.06.2026, 00:00 Uhr',
              '20.06.2026, 20:00 Uhr',
            ),
          },
        ]);
      }
    } finally {
      clock = EVENT_DAY_NOON;
    }
    const row = await t.orm.em.fork().findOneOrFail(Invitation, target.invitation.id);
    expect([row.checkedIn, row.checkedInAt]).toEqual([false, null]);
    expect(await scansOf(target.invitation.id)).toBe(0);

    // The gate's real scan is not beaten by the forged earlier ones.
    const real = {
      id: randomUUID(),
      invitationId: target.invitation.id,
      scannedAt: '2026-06-20T08:05:00.000Z',
    };
    const later = (await sync(reviewer, randomUUID(), 'Tor A', [real])).data as GateSyncResult;
    expect(later.scans.map((scan) => [scan.result, scan.reason])).toEqual([['admitted', null]]);
    const after = await t.orm.em.fork().findOneOrFail(Invitation, target.invitation.id);
    expect(after.checkedInAt?.toISOString()).toBe(real.scannedAt);
  });

  it('takes scans from 15 minutes before the opening to 15 minutes after the end, not a second more', async () => {
    const { gateOpensAt, end } = t.config.event;
    const cars = await Promise.all(['Früh', 'Zu früh', 'Spät', 'Zu spät'].map((name) => car(name)));
    const times = [
      new Date(gateOpensAt.getTime() - minutes(15)),
      new Date(gateOpensAt.getTime() - minutes(15) - 1000),
      new Date(end.getTime() + minutes(15)),
      new Date(end.getTime() + minutes(15) + 1000),
    ];
    const scans = cars.map((entry, index) => ({
      id: randomUUID(),
      invitationId: entry.invitation.id,
      scannedAt: times[index]!.toISOString(),
    }));
    clock = new Date(end.getTime() + minutes(60));
    try {
      const res = await sync(admin, randomUUID(), 'Tor B', scans);
      const byId = new Map((res.data as GateSyncResult).scans.map((scan) => [scan.id, scan]));
      expect(scans.map((scan) => byId.get(scan.id)?.reason ?? byId.get(scan.id)?.result)).toEqual([
        'admitted',
        'outside_window',
        'admitted',
        'outside_window',
      ]);
    } finally {
      clock = EVENT_DAY_NOON;
    }
  });

  it('refuses an online check-in outside the window in German, and takes it on the event day', async () => {
    const target = await car('Vorabend');
    clock = new Date(t.config.event.gateOpensAt.getTime() - minutes(16));
    try {
      const closed = await reviewer.post('/api/admin/check-in', { code: target.invitation.qrCode });
      expect(closed.status).toBe(409);
      expect(closed.data).toEqual({
        result: 'outside_window',
        message:
          'Der Einlass ist geschlossen. Eingecheckt wird vom 20.06.2026, 00:00 Uhr bis 20.06.2026, 20:00 Uhr.',
      });
      expect(await checkedIn(target.invitation.id)).toBe(0);
      expect(await scansOf(target.invitation.id)).toBe(0);
    } finally {
      clock = EVENT_DAY_NOON;
    }
    const open = await reviewer.post('/api/admin/check-in', { code: target.invitation.qrCode });
    expect(open.status, open.text).toBe(200);
    expect(open.data.checkedInAt).toBe(EVENT_DAY_NOON.toISOString());
  });

  it('syncs 1,200 offline scans in chunks the server takes; one request of more is refused in German', async () => {
    const em = t.orm.em.fork();
    const ids = (
      await em.getConnection().execute<Array<{ id: string }>>(
        `with v as (
           insert into vehicle (id, user_id, edition_id, title, brand, model, year, status, ps, weight_kg,
                                top_speed_kmh, zero_to_hundred_s, created_at, updated_at)
           select gen_random_uuid(), ?, ?, 'Audi Quattro ' || n, 'Audi', 'Quattro', 1985, 'confirmed', 306, 1300,
                  250, 4.8, now(), now()
             from generate_series(1, 1200) n
           returning id)
         insert into invitation (id, vehicle_id, edition_id, start_number, qr_code, parking_zone, created_at)
         select gen_random_uuid(), id, ?, 100000 + row_number() over (), md5(random()::text) || md5(random()::text),
                'A', now() from v
         returning id`,
        [ownerId, t.event.edition.id, t.event.edition.id],
      )
    ).map((row) => row.id);
    expect(ids).toHaveLength(1200);
    const device = randomUUID();
    const scans = ids.map((invitationId, index) => ({
      id: randomUUID(),
      invitationId,
      scannedAt: new Date(Date.parse('2026-06-20T08:00:00Z') + index * 1000).toISOString(),
    }));

    const whole = await sync(reviewer, device, 'Tor M', scans.slice(0, GATE_SYNC_MAX_SCANS + 1));
    expect(whole.status).toBe(400);
    expect(whole.data).toEqual({
      message: 'Höchstens 500 Scans je Sendung.',
      issues: [{ field: 'scans', message: 'Höchstens 500 Scans je Sendung.' }],
    });
    expect(await checkedIn(...ids)).toBe(0);

    // As the device sends them: chunks of the shared limit, one after the other.
    const chunks = chunked(scans, GATE_SYNC_MAX_SCANS);
    expect(chunks.map((chunk) => chunk.length)).toEqual([500, 500, 200]);
    let answered = 0;
    for (const chunk of chunks) {
      const res = await sync(reviewer, device, 'Tor M', chunk);
      expect(res.status, res.text).toBe(200);
      answered = (res.data as GateSyncResult).scans.filter((scan) => scan.result === 'admitted').length;
    }
    expect(answered).toBe(1200);
    expect(await checkedIn(...ids)).toBe(1200);
  }, 120_000);
});
