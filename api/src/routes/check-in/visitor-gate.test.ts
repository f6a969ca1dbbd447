import { createPublicKey, randomUUID, verify } from 'node:crypto';
import { CHECK_IN_MESSAGES, VISITOR_GATE_MESSAGES, VISITOR_TICKET_MESSAGES } from '@schlosstreffen/shared';
import type {
  ArrivalsBoard,
  GateList,
  GateSyncResult,
  GateTicketsData,
  GateVisitorScanState,
  LookBack,
} from '@schlosstreffen/shared/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkInCodeHash } from '../../core/check-in/gate-list.js';
import { VisitorRegistration } from '../../core/model/visitor-registration.entity.js';
import { VisitorTicket } from '../../core/model/visitor-ticket.entity.js';
import { newTicketSecret, ticketSecretHash } from '../../core/visitors/tickets.js';
import { deleteVisitorRegistration } from '../../core/visitors/visitor.service.js';
import { createTestContext, EVENT_DAY_NOON, type TestClient, type TestContext } from '../../testing/index.js';

/**
 * Visitor tickets at the gate, on the real database: the gate list holds their hashes only, signed;
 * scans made offline at two gates count once whatever order they arrive in; a deleted visitor's
 * ticket is refused; exit scanning lets a visitor leave and come back; walk-ins count once; the
 * board counts who is on the grounds against the capacity, and the look back keeps the total.
 */
let t: TestContext;
let clock = EVENT_DAY_NOON;
let admin: TestClient;
let reviewer: TestClient;

beforeAll(async () => {
  t = await createTestContext({ relay: false, now: () => clock });
  admin = (await t.signIn('admin')).client;
  reviewer = (await t.signIn('reviewer')).client;
  const res = await admin.patch(`/api/admin/editions/${t.event.edition.year}`, {
    visitorTickets: { capacity: 5, exitScanning: false },
  });
  expect(res.status, res.text).toBe(200);
});
afterAll(() => t?.close());

const at = (minute: number) => new Date(Date.UTC(2026, 5, 20, 8, minute)).toISOString();

/** A confirmed visitor holding an issued ticket: its id, its code and its registration. */
async function ticket(): Promise<{ id: string; code: string; registrationId: string }> {
  const em = t.orm.em.fork();
  const registration = em.create(VisitorRegistration, {
    id: randomUUID(),
    edition: t.event.edition.id,
    firstName: 'Vera',
    lastName: 'Besuch',
    email: `besuch-${randomUUID()}@example.de`,
    confirmedAt: new Date(Date.UTC(2026, 4, 1)),
  });
  const code = newTicketSecret();
  const row = em.create(VisitorTicket, {
    edition: t.event.edition.id,
    registration,
    state: 'issued',
    secretHash: ticketSecretHash(code),
    queuedAt: new Date(Date.UTC(2026, 4, 1)),
    issuedAt: new Date(Date.UTC(2026, 4, 1)),
  });
  await em.flush();
  return { id: row.id, code, registrationId: registration.id };
}

type Scan = { id: string; ticketId: string | null; kind: 'in' | 'out' | 'walk_in'; scannedAt: string };
const scan = (ticketId: string | null, kind: Scan['kind'], minute: number): Scan => ({
  id: randomUUID(),
  ticketId,
  kind,
  scannedAt: at(minute),
});

async function sync(
  client: TestClient,
  deviceId: string,
  gate: string,
  visitorScans: Scan[],
  since?: string,
) {
  const res = await client.post('/api/admin/check-in/sync', {
    deviceId,
    gate,
    since,
    scans: [],
    visitorScans,
  });
  expect(res.status, res.text).toBe(200);
  return res.data as GateSyncResult;
}

const stateOf = (result: GateSyncResult, id: string) => result.visitorScans.find((item) => item.id === id)!;

async function ticketsPart(since?: string): Promise<{ list: GateList; data: GateTicketsData }> {
  const res = await reviewer.get(
    `/api/admin/check-in/list${since ? `?since=${encodeURIComponent(since)}` : ''}`,
  );
  expect(res.status).toBe(200);
  const list = res.data as GateList;
  const key = createPublicKey({
    key: Buffer.concat([
      Buffer.from('302a300506032b6570032100', 'hex'),
      Buffer.from(list.publicKey, 'base64'),
    ]),
    format: 'der',
    type: 'spki',
  });
  expect(list.tickets).not.toBeNull();
  expect(verify(null, Buffer.from(list.tickets!.data), key, Buffer.from(list.tickets!.sig, 'base64'))).toBe(
    true,
  );
  return { list, data: JSON.parse(list.tickets!.data) as GateTicketsData };
}

const board = async () => ((await reviewer.get('/api/admin/arrivals')).data as ArrivalsBoard).visitors!;

describe('visitor tickets at the gate', () => {
  it('puts the tickets on the gate list as hashes only, signed; a delta names a ticket given back', async () => {
    const one = await ticket();
    const { list, data } = await ticketsPart();
    const entry = data.entries.find((item) => item.id === one.id)!;
    expect(entry).toEqual({
      id: one.id,
      hash: checkInCodeHash(one.code),
      firstIn: null,
      firstGate: null,
      inside: false,
      last: null,
    });
    expect(data).toMatchObject({ editionId: t.event.edition.id, exitScanning: false, capacity: 5 });
    expect(data.total).toBe(data.entries.length);
    // Nothing of the holder on the device.
    expect(list.tickets!.data).not.toMatch(/Vera|Besuch|example\.de/);

    const em = t.orm.em.fork();
    await em.nativeUpdate(
      VisitorTicket,
      { id: one.id },
      { state: 'returned', secretHash: null, returnedAt: clock, gateChangedAt: new Date() },
    );
    const delta = await ticketsPart(list.cursor);
    expect(delta.list.delta).toBe(true);
    expect(delta.data.removed).toContain(one.id);
    expect(delta.data.entries.find((item) => item.id === one.id)).toBeUndefined();
    expect(delta.data.total).toBe(data.total - 1);
  });

  it('counts a ticket scanned at two gates offline once, whichever syncs first; a resend changes nothing', async () => {
    const before = await board();
    const visitor = await ticket();
    const gateA = randomUUID();
    const gateB = randomUUID();
    const a = scan(visitor.id, 'in', 1);
    const b = scan(visitor.id, 'in', 5);

    // B comes online first: its scan lets the visitor in until A's earlier one arrives.
    const bFirst = await sync(reviewer, gateB, 'Tor B', [b]);
    expect(stateOf(bFirst, b.id)).toMatchObject({
      result: 'admitted',
      message: VISITOR_GATE_MESSAGES.admitted,
    });
    const aFirst = await sync(admin, gateA, 'Tor A', [a]);
    expect(stateOf(aFirst, a.id)).toMatchObject({
      result: 'admitted',
      firstIn: a.scannedAt,
      firstGate: 'Tor A',
    });
    // Sent again (a lost answer): still once.
    await sync(admin, gateA, 'Tor A', [a]);

    const bLater = await sync(reviewer, gateB, 'Tor B', [], bFirst.cursor);
    expect(stateOf(bLater, b.id)).toEqual({
      id: b.id,
      ticketId: visitor.id,
      kind: 'in',
      result: 'duplicate',
      firstIn: a.scannedAt,
      firstGate: 'Tor A',
      reason: null,
      message: CHECK_IN_MESSAGES.already_checked_in('10:01'),
    });
    const after = await board();
    expect(after.admitted - before.admitted).toBe(1);
    expect(after.onGrounds - before.onGrounds).toBe(1);

    // The list tells every gate: in since 10:01 at 'Tor A'.
    const entry = (await ticketsPart()).data.entries.find((item) => item.id === visitor.id)!;
    expect(entry).toMatchObject({
      firstIn: a.scannedAt,
      firstGate: 'Tor A',
      inside: true,
      last: b.scannedAt,
    });

    // At the online screen, too: 'Bereits eingecheckt um 10:01 Uhr'.
    const online = await reviewer.post('/api/admin/check-in/visitor', { code: visitor.code });
    expect(online.status, online.text).toBe(200);
    expect((online.data as GateVisitorScanState).message).toBe('Bereits eingecheckt um 10:01 Uhr');
  });

  it("refuses a deleted visitor's ticket: off the list, a scan made offline is not taken, the online screen knows none", async () => {
    const visitor = await ticket();
    const { list } = await ticketsPart();
    await deleteVisitorRegistration(t.orm.em.fork(), visitor.registrationId);
    expect(await t.orm.em.fork().count(VisitorTicket, { id: visitor.id })).toBe(0);

    // A device that kept the old list learns it from the count and loads the list whole.
    const delta = await ticketsPart(list.cursor);
    const whole = await ticketsPart();
    expect(delta.data.total).toBe(whole.data.entries.length);
    expect(whole.data.entries.some((item) => item.id === visitor.id)).toBe(false);

    const offline = scan(visitor.id, 'in', 10);
    const answer = await sync(reviewer, randomUUID(), 'Tor C', [offline]);
    expect(stateOf(answer, offline.id)).toMatchObject({
      result: 'refused',
      reason: 'ticket_invalid',
      message: VISITOR_GATE_MESSAGES.ticket_invalid,
    });
    const [kept] = await t.orm.em
      .fork()
      .getConnection()
      .execute<Array<{ n: number }>>(`select count(*)::int as n from visitor_ticket_scan where id = ?`, [
        offline.id,
      ]);
    expect(kept!.n).toBe(0);

    const online = await reviewer.post('/api/admin/check-in/visitor', { code: visitor.code });
    expect(online.status).toBe(404);
    expect(online.data.message).toBe(VISITOR_GATE_MESSAGES.ticket_invalid);
  });

  it('scans out only where exit scanning is on; in, out and in again count one visitor; walk-ins once each', async () => {
    const visitor = await ticket();
    const device = randomUUID();
    const outWhileOff = scan(visitor.id, 'out', 20);
    const refused = await sync(reviewer, device, 'Tor A', [scan(visitor.id, 'in', 19), outWhileOff]);
    expect(stateOf(refused, outWhileOff.id)).toMatchObject({ result: 'refused', reason: 'exit_off' });

    expect(
      (
        await admin.patch(`/api/admin/editions/${t.event.edition.year}`, {
          visitorTickets: { capacity: 5, exitScanning: true },
        })
      ).status,
    ).toBe(200);
    expect((await ticketsPart()).data.exitScanning).toBe(true);
    const before = await board();
    const out = scan(visitor.id, 'out', 30);
    const back = scan(visitor.id, 'in', 40);
    // Sent in the wrong order: the replay counts them in the order they were made.
    const answer = await sync(reviewer, device, 'Tor A', [back, out]);
    expect(stateOf(answer, out.id).result).toBe('exited');
    expect(stateOf(answer, back.id)).toMatchObject({
      result: 'readmitted',
      message: VISITOR_GATE_MESSAGES.readmitted,
    });
    const outAgain = scan(visitor.id, 'out', 50);
    const outTwice = scan(visitor.id, 'out', 51);
    const leaving = await sync(reviewer, device, 'Tor A', [outAgain, outTwice]);
    expect(stateOf(leaving, outTwice.id)).toMatchObject({
      result: 'not_inside',
      message: VISITOR_GATE_MESSAGES.not_inside,
    });

    const walkIn = scan(null, 'walk_in', 52);
    await sync(reviewer, device, 'Tor A', [walkIn, scan(null, 'walk_in', 53)]);
    await sync(reviewer, device, 'Tor A', [walkIn]);
    const after = await board();
    // The visitor was in before (10:19): counted once; the two walk-ins are new.
    expect(after.admitted - before.admitted).toBe(2);
    expect(after.walkIns - before.walkIns).toBe(2);
    // The visitor is out now (−1), the walk-ins in (+2).
    expect(after.onGrounds - before.onGrounds).toBe(1);
    expect(after.exitScanning).toBe(true);
  });

  it('keeps a ticket as it was once the meeting is over: it can no longer be given back', async () => {
    const visitor = await ticket();
    clock = new Date(t.event.end.getTime() + 3600_000);
    try {
      const res = await t.client().post(`/api/visitor-tickets/${visitor.code}/return`, {});
      expect(res.status, res.text).toBe(409);
      expect(res.data.message).toBe(VISITOR_TICKET_MESSAGES.meetingOver(t.event.edition.name));
    } finally {
      clock = EVENT_DAY_NOON;
    }
    expect((await t.orm.em.fork().findOneOrFail(VisitorTicket, visitor.id)).state).toBe('issued');
  });

  it('warns on the board at 90 % of the capacity, and the look back keeps the total once the sign-ups are gone', async () => {
    const now = await board();
    // One more on the grounds reaches 90 %.
    const capacity = Math.floor((now.onGrounds + 1) / 0.9);
    expect(now.onGrounds).toBeLessThan(capacity * 0.9);
    expect(
      (
        await admin.patch(`/api/admin/editions/${t.event.edition.year}`, {
          visitorTickets: { capacity, exitScanning: true },
        })
      ).status,
    ).toBe(200);
    expect((await board()).warning).toBe(false);
    await sync(reviewer, randomUUID(), 'Tageskasse', [scan(null, 'walk_in', 55)]);
    const full = await board();
    expect(full.onGrounds / capacity).toBeGreaterThanOrEqual(0.9);
    expect(full.warning).toBe(true);

    // After the meeting the sign-ups go (retention): the scans stay, without their tickets.
    await t.orm.em.fork().nativeDelete(VisitorRegistration, { edition: t.event.edition.id });
    clock = new Date(t.event.end.getTime() + 24 * 3600 * 1000);
    const lookBack = (await t.client().get(`/api/editions/${t.event.edition.year}/look-back`))
      .data as LookBack;
    expect(lookBack.visitorsAdmitted).toBe(full.admitted);
    clock = EVENT_DAY_NOON;
  });
});
