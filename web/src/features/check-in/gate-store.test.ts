// @vitest-environment node
// IndexedDB from fake-indexeddb; Web Crypto (Ed25519, SHA-256) is Node's own, as in the browser.
import 'fake-indexeddb/auto';
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import {
  CHECK_IN_MESSAGES,
  GATE_SYNC_MAX_SCANS,
  GateSyncSchema,
  VISITOR_GATE_MESSAGES,
} from '@schlosstreffen/shared';
import type {
  GateEntryData,
  GateList,
  GateScanState,
  GateSyncResult,
  GateTicketEntry,
  GateTicketsData,
  GateVisitorScanState,
  SignedGateEntry,
} from '@schlosstreffen/shared/api';
import { openDB } from 'idb';
import * as v from 'valibot';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  checkInOnDevice,
  clearGate,
  countWalkIn,
  expireGate,
  gateDevice,
  gateMeta,
  gateStaff,
  GateListError,
  queuedScans,
  queuedVisitorScans,
  rememberGateStaff,
  visitorOnDevice,
  type QueuedScan,
} from './gate-store';
import { refreshGateList, syncScans } from './gate-sync';

const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const spki = publicKey.export({ format: 'der', type: 'spki' });
const PUBLIC_KEY = spki.subarray(spki.length - 32).toString('base64');
const VALID_UNTIL = '2030-06-21T18:00:00.000Z';

const hash = (code: string) => createHash('sha256').update(code).digest('hex');

function entry(startNumber: number, overrides: Partial<GateEntryData> = {}): GateEntryData {
  return {
    id: `00000000-0000-4000-8000-${String(startNumber).padStart(12, '0')}`,
    startNumber,
    name: `Auto ${startNumber}`,
    brand: 'Audi',
    model: 'Quattro',
    color: 'Weiß',
    zone: 'A',
    codeHash: hash(`code-${startNumber}`),
    confirmed: true,
    checkedInAt: null,
    gate: null,
    validUntil: VALID_UNTIL,
    ...overrides,
  };
}

function list(entries: GateEntryData[], extra: Partial<GateList> = {}): GateList {
  return {
    publicKey: PUBLIC_KEY,
    cursor: new Date().toISOString(),
    delta: false,
    entries: entries.map((data) => {
      const json = JSON.stringify(data);
      return { data: json, sig: sign(null, Buffer.from(json), privateKey).toString('base64') };
    }),
    removed: [],
    total: entries.length,
    expiresAt: VALID_UNTIL,
    tickets: null,
    ...extra,
  };
}

/** A stand-in for the server: answers the list and sync calls in turn and records what was asked. */
function server(...answers: unknown[]) {
  const asked: Array<{ url: string; body: unknown }> = [];
  const fetcher = (async (url: string, init?: RequestInit) => {
    asked.push({ url, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    const next = answers.shift();
    if (next === undefined) throw new TypeError('Failed to fetch');
    return new Response(JSON.stringify(next), { status: 200 });
  }) as typeof fetch;
  return { fetcher, asked };
}

/** The list and sync calls go through the API client, to the stand-in `api` answers as. */
function refreshWith(api: { fetcher: typeof fetch }) {
  vi.stubGlobal('fetch', api.fetcher);
  return refreshGateList();
}

function syncWith(api: { fetcher: typeof fetch }) {
  vi.stubGlobal('fetch', api.fetcher);
  return syncScans();
}

afterEach(async () => {
  vi.unstubAllGlobals();
  await clearGate();
});

describe('the gate list on the device', () => {
  it('checks codes and start numbers against the signed list and queues what it admits', async () => {
    const meta = await refreshWith(server(list([entry(1), entry(2, { confirmed: false }), entry(3)])));
    expect(meta.count).toBe(3);

    const byCode = await checkInOnDevice('code-1', new Date('2030-06-20T08:00:00Z'));
    expect(byCode).toMatchObject({ kind: 'checked-in', entry: { startNumber: 1, name: 'Auto 1' } });
    expect(await checkInOnDevice('1')).toMatchObject({ kind: 'already', at: '2030-06-20T08:00:00.000Z' });
    expect(await checkInOnDevice('code-2')).toMatchObject({
      kind: 'not-confirmed',
      entry: { startNumber: 2 },
    });
    expect(await checkInOnDevice('2')).toMatchObject({ kind: 'not-confirmed' });
    expect(await checkInOnDevice('code-99')).toEqual({ kind: 'unknown' });
    expect(await checkInOnDevice('99')).toEqual({ kind: 'unknown' });
    expect((await queuedScans()).map((scan) => [scan.startNumber, scan.state])).toEqual([[1, 'pending']]);
  });

  it("refuses a confirmed car whose fee is open ('fee-open'), queues nothing, and lets it in once the fee is booked", async () => {
    await refreshWith(
      server(list([entry(1, { feeOpenCents: 2500 }), entry(2, { feeOpenCents: 0 }), entry(3)])),
    );

    expect(await checkInOnDevice('code-1')).toMatchObject({
      kind: 'fee-open',
      openCents: 2500,
      entry: { startNumber: 1 },
    });
    expect(await checkInOnDevice('1')).toMatchObject({ kind: 'fee-open', openCents: 2500 });
    expect(await queuedScans()).toEqual([]);
    // 0 and absent mean nothing open.
    expect(await checkInOnDevice('2')).toMatchObject({ kind: 'checked-in' });
    expect(await checkInOnDevice('3')).toMatchObject({ kind: 'checked-in' });

    // 'Bar bezahlt' was booked at the server: the device's older copy no longer keeps the car out.
    const admitted = await checkInOnDevice('1', new Date('2030-06-20T09:00:00Z'), { feePaid: true });
    expect(admitted).toMatchObject({ kind: 'checked-in', at: '2030-06-20T09:00:00.000Z' });
    expect(await checkInOnDevice('1')).toMatchObject({ kind: 'already' });
    expect((await queuedScans()).map((scan) => scan.startNumber).sort()).toEqual([1, 2, 3]);
  });

  it('refuses a list with one forged entry whole', async () => {
    const forged = list([entry(1), entry(2)]);
    forged.entries[1] = { ...forged.entries[1]!, data: forged.entries[1]!.data.replace('"A"', '"B"') };
    await expect(refreshWith(server(forged))).rejects.toBeInstanceOf(GateListError);
    expect(await gateMeta()).toBeNull();
    expect(await checkInOnDevice('code-1')).toEqual({ kind: 'unknown' });
  });

  it('merges the changes since its copy, and loads the list whole when the counts disagree', async () => {
    await refreshWith(server(list([entry(1, { confirmed: false }), entry(2), entry(3)])));
    const delta = list([entry(1, { confirmed: true })], {
      delta: true,
      removed: [entry(3).id],
      total: 2,
    });
    const first = server(delta);
    await refreshWith(first);
    expect(first.asked[0]!.url).toMatch(/\/api\/admin\/check-in\/list\?since=/);
    expect(await checkInOnDevice('1')).toMatchObject({ kind: 'checked-in' });
    expect(await checkInOnDevice('3')).toEqual({ kind: 'unknown' });

    // The server has 3 cars, the device would hold 2: it asks for the whole list.
    const unseen = list([], { delta: true, total: 3 });
    const whole = list([entry(1, { confirmed: true }), entry(2), entry(4)]);
    const second = server(unseen, whole);
    expect((await refreshWith(second)).count).toBe(3);
    expect(second.asked.map((call) => call.url.includes('since='))).toEqual([true, false]);
    expect(await checkInOnDevice('4')).toMatchObject({ kind: 'checked-in' });
  });

  it('sends its queue and learns which scans another gate had been first with', async () => {
    await refreshWith(server(list([entry(1), entry(2)])));
    await checkInOnDevice('1');
    await checkInOnDevice('2');
    const queued = await queuedScans();
    const one = queued.find((scan) => scan.startNumber === 1);
    const two = queued.find((scan) => scan.startNumber === 2);
    const answer: GateSyncResult = {
      scans: [
        {
          id: one!.id,
          invitationId: one!.invitationId,
          result: 'admitted',
          checkedInAt: one!.scannedAt,
          gate: 'Tor B',
          reason: null,
          message: 'Eingecheckt',
        },
        {
          id: two!.id,
          invitationId: two!.invitationId,
          result: 'duplicate',
          checkedInAt: '2030-06-20T07:59:00.000Z',
          gate: 'Tor A',
          reason: null,
          message: 'Doppelt: schon um 09:59 Uhr an „Tor A“ eingecheckt',
        },
      ],
      visitorScans: [],
      cursor: '2030-06-20T08:10:00.000Z',
    };
    const sent = server(answer);
    const scans = await syncWith(sent);
    expect(sent.asked[0]!.body).toMatchObject({
      gate: 'Einlass',
      scans: expect.arrayContaining([
        expect.objectContaining({ id: one!.id }),
        expect.objectContaining({ id: two!.id }),
      ]),
    });
    expect(
      scans
        .map((scan) => [scan.startNumber, scan.state, scan.firstGate])
        .sort((a, b) => Number(a[0]) - Number(b[0])),
    ).toEqual([
      [1, 'admitted', 'Tor B'],
      [2, 'duplicate', 'Tor A'],
    ]);

    // Unreachable: the queue stays as it is.
    await checkInOnDevice('code-2');
    await expect(syncWith(server())).rejects.toThrow();
    expect((await queuedScans()).length).toBe(2);
  });

  it('sends the cursor of its last answer and merges an answer of only what changed', async () => {
    await refreshWith(server(list([entry(1), entry(2)])));
    await checkInOnDevice('1', new Date('2030-06-20T08:00:00Z'));
    await checkInOnDevice('2', new Date('2030-06-20T08:01:00Z'));
    const [two, one] = await queuedScans();
    const state = (scan: QueuedScan, patch: Partial<GateScanState> = {}): GateScanState => ({
      id: scan.id,
      invitationId: scan.invitationId,
      result: 'admitted',
      checkedInAt: scan.scannedAt,
      gate: 'Einlass',
      reason: null,
      message: 'Eingecheckt',
      ...patch,
    });
    const states = async () =>
      (await queuedScans()).map((scan) => [scan.startNumber, scan.state, scan.firstGate]).reverse();

    const first = server({ scans: [state(one!), state(two!)], cursor: '2030-06-20T08:02:00.000Z' });
    await syncWith(first);
    expect(first.asked[0]!.body).not.toHaveProperty('since');
    expect(await states()).toEqual([
      [1, 'admitted', 'Einlass'],
      [2, 'admitted', 'Einlass'],
    ]);

    // Only car 2 changed (another gate was earlier): the answer names it alone, car 1 stays as it was.
    const duplicate = CHECK_IN_MESSAGES.duplicate('Tor A', '09:59');
    const second = server({
      scans: [state(two!, { result: 'duplicate', gate: 'Tor A', message: duplicate })],
      cursor: '2030-06-20T08:05:00.000Z',
    });
    await syncWith(second);
    expect(second.asked[0]!.body).toMatchObject({ since: '2030-06-20T08:02:00.000Z', scans: [] });
    expect(await states()).toEqual([
      [1, 'admitted', 'Einlass'],
      [2, 'duplicate', 'Tor A'],
    ]);
    expect((await queuedScans()).find((scan) => scan.startNumber === 2)?.message).toBe(duplicate);

    // Nothing changed: an empty answer leaves every scan as it is and moves the cursor on.
    const third = server({ scans: [], cursor: '2030-06-20T08:06:00.000Z' });
    await syncWith(third);
    expect(third.asked[0]!.body).toMatchObject({ since: '2030-06-20T08:05:00.000Z' });
    expect(await states()).toEqual([
      [1, 'admitted', 'Einlass'],
      [2, 'duplicate', 'Tor A'],
    ]);
    const fourth = server({ scans: [], cursor: '2030-06-20T08:07:00.000Z' });
    await syncWith(fourth);
    expect(fourth.asked[0]!.body).toMatchObject({ since: '2030-06-20T08:06:00.000Z' });
  });

  it('deletes the list, the queue and the staff member once the list has expired', async () => {
    await refreshWith(server(list([entry(1)])));
    await rememberGateStaff({ id: 's1', firstName: 'Rita', lastName: 'Tor', role: 'reviewer' });
    await checkInOnDevice('1');
    expect(await gateStaff(new Date('2030-06-20T10:00:00Z'))).toMatchObject({ firstName: 'Rita' });
    expect(await expireGate(new Date('2030-06-20T10:00:00Z'))).toBe(false);
    expect(await gateStaff(new Date('2030-06-22T00:00:00Z'))).toBeNull();
    expect(await expireGate(new Date('2030-06-22T00:00:00Z'))).toBe(true);
    expect(await gateMeta()).toBeNull();
    expect(await queuedScans()).toEqual([]);
    expect(await gateStaff()).toBeNull();
  });
});

/**
 * A stand-in for the sync endpoint that answers as the api does: the request is checked with the
 * shared schema (so more than GATE_SYNC_MAX_SCANS scans are a 400), each scan is kept once, and
 * every scan of the device is answered; `refuse` names the scans it refuses and why. From the
 * `downFrom`-th request on it cannot be reached.
 */
function syncServer(options: { downFrom?: number; refuse?: (scannedAt: string) => string | null } = {}) {
  const kept = new Map<string, { id: string; invitationId: string }>();
  const sent: string[][] = [];
  let calls = 0;
  const fetcher = (async (_url: string, init?: RequestInit) => {
    calls += 1;
    if (options.downFrom && calls >= options.downFrom) throw new TypeError('Failed to fetch');
    const parsed = v.safeParse(GateSyncSchema, JSON.parse(String(init?.body)));
    if (!parsed.success) {
      return new Response(JSON.stringify({ message: parsed.issues[0].message }), { status: 400 });
    }
    sent.push(parsed.output.scans.map((scan) => scan.id));
    const refused: GateScanState[] = [];
    for (const scan of parsed.output.scans) {
      const reason = options.refuse?.(scan.scannedAt);
      if (!reason) kept.set(scan.id, scan);
      else
        refused.push({
          ...scan,
          result: 'refused',
          checkedInAt: null,
          gate: null,
          reason: 'outside_window',
          message: reason,
        });
    }
    const admitted = [...kept.values()].map<GateScanState>((scan) => ({
      ...scan,
      result: 'admitted',
      checkedInAt: null,
      gate: 'Einlass',
      reason: null,
      message: 'Eingecheckt',
    }));
    return new Response(
      JSON.stringify({
        scans: [...admitted, ...refused],
        visitorScans: [],
        cursor: new Date().toISOString(),
      } satisfies GateSyncResult),
    );
  }) as typeof fetch;
  return { fetcher, sent, kept };
}

/** A list of `count` cars, each admitted on this device, a second apart from 08:00 UTC on. */
async function admitted(count: number, from = Date.parse('2030-06-20T08:00:00Z')): Promise<void> {
  const entries = Array.from({ length: count }, (_, index) => entry(index + 1));
  await refreshWith(server(list(entries)));
  for (let index = 0; index < count; index++) {
    await checkInOnDevice(String(index + 1), new Date(from + index * 1000));
  }
}

describe('sending the queue', () => {
  it('sends 1,200 waiting scans in chunks the server takes, oldest first, each scan once', async () => {
    await admitted(1200);
    // One request with all of them is what the server refuses.
    const whole = await syncServer().fetcher('/api/admin/check-in/sync', {
      method: 'POST',
      body: JSON.stringify({
        deviceId: crypto.randomUUID(),
        gate: 'Einlass',
        scans: (await queuedScans()).map(({ id, invitationId, scannedAt }) => ({
          id,
          invitationId,
          scannedAt,
        })),
      }),
    });
    expect(whole.status).toBe(400);
    expect(((await whole.json()) as { message: string }).message).toBe('Höchstens 500 Scans je Sendung.');

    const api = syncServer();
    const scans = await syncWith(api);
    expect(api.sent.map((ids) => ids.length)).toEqual([GATE_SYNC_MAX_SCANS, GATE_SYNC_MAX_SCANS, 200]);
    expect(new Set(api.sent.flat()).size).toBe(1200);
    expect(scans.filter((scan) => scan.state === 'admitted')).toHaveLength(1200);
    const queued = await queuedScans();
    const firstChunk = new Set(api.sent[0]);
    const oldest = queued.filter((scan) => firstChunk.has(scan.id)).map((scan) => scan.startNumber);
    expect(Math.max(...oldest)).toBe(500);
  }, 60_000);

  it('keeps what a chunk achieved when the network goes, and sends only the rest later', async () => {
    await admitted(1200);
    const flaky = syncServer({ downFrom: 2 });
    await expect(syncWith(flaky)).rejects.toThrow();
    const after = await queuedScans();
    expect(after.filter((scan) => scan.state === 'admitted')).toHaveLength(500);
    expect(after.filter((scan) => scan.state === 'pending')).toHaveLength(700);

    const back = syncServer();
    await syncWith(back);
    expect(back.sent.map((ids) => ids.length)).toEqual([500, 200]);
    expect(back.sent.flat().filter((id) => flaky.sent[0]!.includes(id))).toEqual([]);
    expect((await queuedScans()).every((scan) => scan.state === 'admitted')).toBe(true);
  }, 60_000);

  it('keeps a scan the server refused visible as refused, with its reason, and does not send it again', async () => {
    const outside = CHECK_IN_MESSAGES.scanOutsideWindow(
      '20.06.2029, 10:00 Uhr',
      '20.06.2030, 00:00 Uhr',
      '20.06.2030, 20:00 Uhr',
    );
    const api = syncServer({ refuse: (scannedAt) => (scannedAt < '2030-06-19' ? outside : null) });
    await refreshWith(server(list([entry(1), entry(2)])));
    await checkInOnDevice('1', new Date('2029-06-20T08:00:00Z'));
    await checkInOnDevice('2', new Date('2030-06-20T08:00:00Z'));
    await syncWith(api);
    const scans = await queuedScans();
    expect(scans.map((scan) => [scan.startNumber, scan.state, scan.reason, scan.message])).toEqual([
      [2, 'admitted', null, null],
      [1, 'refused', 'outside_window', outside],
    ]);
    await syncWith(api);
    expect(api.sent).toEqual([[expect.any(String), expect.any(String)], []]);
    // The car can be scanned again (with a right clock): the refused scan does not count as in.
    expect(await checkInOnDevice('1', new Date('2030-06-20T09:00:00Z'))).toMatchObject({
      kind: 'checked-in',
    });
  });
});

describe('a scan refused for its fee', () => {
  it("keeps it as refused with reason fee_open; scanned again, the list's open fee says 'fee-open'", async () => {
    await refreshWith(server(list([entry(1)])));
    await checkInOnDevice('1', new Date('2030-06-20T08:00:00Z'));
    const [scan] = await queuedScans();
    // The server refuses it: the fee is open (this device's list was older than the server's state).
    const refused: GateSyncResult = {
      scans: [
        {
          id: scan!.id,
          invitationId: scan!.invitationId,
          result: 'refused',
          checkedInAt: null,
          gate: null,
          reason: 'fee_open',
          message: CHECK_IN_MESSAGES.fee_open,
        },
      ],
      visitorScans: [],
      cursor: '2030-06-20T08:01:00.000Z',
    };
    await syncWith(server(refused));
    expect((await queuedScans()).map((item) => [item.state, item.reason, item.message])).toEqual([
      ['refused', 'fee_open', CHECK_IN_MESSAGES.fee_open],
    ]);

    await refreshWith(server(list([entry(1, { feeOpenCents: 2500 })])));
    expect(await checkInOnDevice('1')).toMatchObject({ kind: 'fee-open', openCents: 2500 });
  });
});

/** A visitor ticket's code: 'VT' and 32 URL-safe characters, as the api makes them. */
const ticketCode = (n: number) => `VT${String(n).padStart(32, 'x')}`;

function ticket(n: number, overrides: Partial<GateTicketEntry> = {}): GateTicketEntry {
  return {
    id: `10000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    hash: hash(ticketCode(n)),
    firstIn: null,
    firstGate: null,
    inside: false,
    last: null,
    ...overrides,
  };
}

/** The tickets' part of a list, signed as a whole as the api signs it. */
function signedTickets(entries: GateTicketEntry[], extra: Partial<GateTicketsData> = {}): SignedGateEntry {
  const data: GateTicketsData = {
    editionId: 'edition-2030',
    exitScanning: false,
    capacity: 1000,
    entries,
    removed: [],
    total: entries.length,
    validUntil: VALID_UNTIL,
    ...extra,
  };
  const json = JSON.stringify(data);
  return { data: json, sig: sign(null, Buffer.from(json), privateKey).toString('base64') };
}

const at = (time: string) => new Date(`2030-06-20T${time}:00.000Z`);
const visitorQueue = async () =>
  (await queuedVisitorScans()).reverse().map((scan) => [scan.kind, scan.scannedAt.slice(11, 16), scan.state]);

describe('visitor tickets on the device', () => {
  it('lets a ticket in offline, and says when it first came in on the next scan, queueing one scan', async () => {
    const meta = await refreshWith(
      server(
        list([entry(1)], {
          tickets: signedTickets([
            ticket(1),
            ticket(2, {
              firstIn: '2030-06-20T07:30:00.000Z',
              firstGate: 'Tor B',
              inside: true,
              last: '2030-06-20T07:30:00.000Z',
            }),
          ]),
        }),
      ),
    );
    expect(meta.tickets).toMatchObject({ count: 2, exitScanning: false, capacity: 1000 });

    expect(await visitorOnDevice(ticketCode(1), 'in', at('08:00'))).toEqual({
      kind: 'visitor',
      ticketId: ticket(1).id,
      result: 'admitted',
      reason: null,
      message: VISITOR_GATE_MESSAGES.admitted,
      firstIn: '2030-06-20T08:00:00.000Z',
      firstGate: 'Einlass',
    });
    // 08:00 UTC is 10:00 at the venue.
    expect(await visitorOnDevice(ticketCode(1), 'in', at('08:05'))).toMatchObject({
      result: 'duplicate',
      message: 'Bereits eingecheckt um 10:00 Uhr',
      firstIn: '2030-06-20T08:00:00.000Z',
    });
    // In by the list (another gate): the list's time and gate.
    expect(await visitorOnDevice(ticketCode(2), 'in', at('08:06'))).toMatchObject({
      result: 'duplicate',
      message: CHECK_IN_MESSAGES.already_checked_in('09:30'),
      firstGate: 'Tor B',
    });
    expect(await visitorOnDevice(ticketCode(9), 'in', at('08:07'))).toEqual({ kind: 'unknown' });
    // A car's code is no ticket, and a ticket is no car.
    expect(await visitorOnDevice('code-1', 'in')).toEqual({ kind: 'unknown' });
    expect(await checkInOnDevice(ticketCode(1))).toEqual({ kind: 'unknown' });
    expect(await visitorQueue()).toEqual([['in', '08:00', 'pending']]);
    expect((await queuedVisitorScans())[0]!.ticketId).toBe(ticket(1).id);
  });

  it('with exit scanning: out, back in (readmitted), out without being in (not_inside), replaying only scans after the list', async () => {
    const tickets = signedTickets([ticket(1)], { exitScanning: true });
    await refreshWith(server(list([], { tickets })));

    expect(await visitorOnDevice(ticketCode(1), 'out', at('07:55'))).toMatchObject({
      result: 'not_inside',
      message: VISITOR_GATE_MESSAGES.not_inside,
    });
    expect(await visitorOnDevice(ticketCode(1), 'in', at('08:00'))).toMatchObject({ result: 'admitted' });
    expect(await visitorOnDevice(ticketCode(1), 'out', at('08:05'))).toMatchObject({
      result: 'exited',
      message: VISITOR_GATE_MESSAGES.exited,
    });
    expect(await visitorOnDevice(ticketCode(1), 'out', at('08:06'))).toMatchObject({ result: 'not_inside' });
    expect(await visitorOnDevice(ticketCode(1), 'in', at('08:10'))).toMatchObject({
      result: 'readmitted',
      message: VISITOR_GATE_MESSAGES.readmitted,
      firstIn: '2030-06-20T08:00:00.000Z',
    });
    expect(await visitorOnDevice(ticketCode(1), 'in', at('08:11'))).toMatchObject({
      result: 'duplicate',
      message: 'Bereits eingecheckt um 10:00 Uhr',
    });
    // Only what changed where the visitor stands is queued.
    expect(await visitorQueue()).toEqual([
      ['in', '08:00', 'pending'],
      ['out', '08:05', 'pending'],
      ['in', '08:10', 'pending'],
    ]);

    // The server counted up to 08:07 (another gate let the ticket out then): this device's 08:10 in
    // is replayed on top, so the ticket is inside.
    const until = (last: string) =>
      signedTickets(
        [ticket(1, { firstIn: '2030-06-20T08:00:00.000Z', firstGate: 'Einlass', inside: false, last })],
        { exitScanning: true },
      );
    await refreshWith(server(list([], { tickets: until('2030-06-20T08:07:00.000Z') })));
    expect(await visitorOnDevice(ticketCode(1), 'in', at('08:12'))).toMatchObject({ result: 'duplicate' });
    // Counted up to 08:20 (out at another gate after this device's scans): out, so back in.
    await refreshWith(server(list([], { tickets: until('2030-06-20T08:20:00.000Z') })));
    expect(await visitorOnDevice(ticketCode(1), 'in', at('08:25'))).toMatchObject({ result: 'readmitted' });
  });

  it('refuses an exit scan where the edition does not scan the exit', async () => {
    await refreshWith(server(list([], { tickets: signedTickets([ticket(1, { inside: true })]) })));
    expect(await visitorOnDevice(ticketCode(1), 'out')).toMatchObject({
      result: 'refused',
      reason: 'exit_off',
      message: VISITOR_GATE_MESSAGES.exit_off,
    });
    expect(await queuedVisitorScans()).toEqual([]);
  });

  it("refuses a list whose tickets' part has a forged signature, whole", async () => {
    const forged = signedTickets([ticket(1)]);
    forged.data = forged.data.replace('"inside":false', '"inside":true');
    await expect(refreshWith(server(list([entry(1)], { tickets: forged })))).rejects.toBeInstanceOf(
      GateListError,
    );
    expect(await gateMeta()).toBeNull();
    expect(await visitorOnDevice(ticketCode(1), 'in')).toEqual({ kind: 'unknown' });
  });

  it('merges ticket changes and give-backs, loads whole when the ticket counts disagree, and drops tickets the edition no longer has', async () => {
    await refreshWith(
      server(list([entry(1)], { tickets: signedTickets([ticket(1), ticket(2), ticket(3)]) })),
    );
    const delta = server(
      list([], {
        delta: true,
        total: 1,
        tickets: signedTickets(
          [
            ticket(2, {
              firstIn: '2030-06-20T07:00:00.000Z',
              firstGate: 'Tor C',
              inside: true,
              last: '2030-06-20T07:00:00.000Z',
            }),
          ],
          { removed: [ticket(3).id], total: 2 },
        ),
      }),
    );
    expect((await refreshWith(delta)).tickets?.count).toBe(2);
    expect(delta.asked.map((call) => call.url.includes('since='))).toEqual([true]);
    expect(await visitorOnDevice(ticketCode(3), 'in')).toEqual({ kind: 'unknown' });
    expect(await visitorOnDevice(ticketCode(2), 'in')).toMatchObject({
      result: 'duplicate',
      firstGate: 'Tor C',
    });

    // The server holds 3 valid tickets, the device would hold 2: it asks for the whole list.
    const unseen = list([], { delta: true, total: 1, tickets: signedTickets([], { total: 3 }) });
    const whole = list([entry(1)], { tickets: signedTickets([ticket(1), ticket(2), ticket(4)]) });
    const second = server(unseen, whole);
    expect((await refreshWith(second)).tickets?.count).toBe(3);
    expect(second.asked.map((call) => call.url.includes('since='))).toEqual([true, false]);
    expect(await visitorOnDevice(ticketCode(4), 'in')).toMatchObject({ result: 'admitted' });

    // Tickets switched off: the device deletes them.
    expect((await refreshWith(server(list([entry(1)], { delta: true })))).tickets).toBeNull();
    expect(await visitorOnDevice(ticketCode(1), 'in')).toEqual({ kind: 'unknown' });
  });

  it("counts a walk-in offline, sends it with the next sync and merges the server's answers by id", async () => {
    await refreshWith(server(list([entry(1)], { tickets: signedTickets([ticket(1), ticket(2)]) })));
    await visitorOnDevice(ticketCode(1), 'in', at('08:00'));
    await visitorOnDevice(ticketCode(2), 'in', at('08:01'));
    await checkInOnDevice('1', at('08:02'));
    const walkIn = await countWalkIn(at('08:03'));
    expect(walkIn).toMatchObject({ ticketId: null, kind: 'walk_in', state: 'pending' });

    // No network: everything stays queued.
    await expect(syncWith(server())).rejects.toThrow();
    expect(await visitorQueue()).toEqual([
      ['in', '08:00', 'pending'],
      ['in', '08:01', 'pending'],
      ['walk_in', '08:03', 'pending'],
    ]);

    const [one, two] = (await queuedVisitorScans()).reverse();
    const state = (
      scan: { id: string; ticketId: string | null; kind: 'in' | 'out' | 'walk_in' },
      patch: Partial<GateVisitorScanState>,
    ): GateVisitorScanState => ({
      id: scan.id,
      ticketId: scan.ticketId,
      kind: scan.kind,
      result: 'admitted',
      firstIn: null,
      firstGate: null,
      reason: null,
      message: VISITOR_GATE_MESSAGES.admitted,
      ...patch,
    });
    const outside = 'Außerhalb der Einlasszeit: Scan nicht übernommen.';
    const [car] = await queuedScans();
    const answer: GateSyncResult = {
      scans: [
        {
          id: car!.id,
          invitationId: car!.invitationId,
          result: 'admitted',
          checkedInAt: car!.scannedAt,
          gate: 'Einlass',
          reason: null,
          message: 'Eingecheckt',
        },
      ],
      visitorScans: [
        state(one!, {
          result: 'duplicate',
          firstIn: '2030-06-20T07:58:00.000Z',
          firstGate: 'Tor B',
          message: 'Doppelt',
        }),
        state(two!, { result: 'refused', reason: 'outside_window', message: outside }),
        state(walkIn, {}),
      ],
      cursor: '2030-06-20T08:05:00.000Z',
    };
    const sent = server(answer, { scans: [], visitorScans: [], cursor: '2030-06-20T08:06:00.000Z' });
    await syncWith(sent);
    const body = v.parse(GateSyncSchema, sent.asked[0]!.body);
    expect(body.scans).toHaveLength(1);
    expect(body.visitorScans.map((scan) => [scan.ticketId, scan.kind, scan.scannedAt])).toEqual([
      [ticket(1).id, 'in', '2030-06-20T08:00:00.000Z'],
      [ticket(2).id, 'in', '2030-06-20T08:01:00.000Z'],
      [null, 'walk_in', '2030-06-20T08:03:00.000Z'],
    ]);
    expect(await visitorQueue()).toEqual([
      ['in', '08:00', 'duplicate'],
      ['in', '08:01', 'refused'],
      ['walk_in', '08:03', 'admitted'],
    ]);
    const stored = (await queuedVisitorScans()).find((scan) => scan.id === two!.id);
    expect(stored).toMatchObject({ reason: 'outside_window', message: outside });

    // Nothing is sent again; the refused scan does not count as in, so the ticket can come in.
    await syncWith(sent);
    expect(sent.asked[1]!.body).toMatchObject({
      since: '2030-06-20T08:05:00.000Z',
      scans: [],
      visitorScans: [],
    });
    expect(await visitorOnDevice(ticketCode(2), 'in', at('08:10'))).toMatchObject({ result: 'admitted' });
  });

  it('sends at most GATE_SYNC_MAX_SCANS scans of cars and visitors together per request, oldest first', async () => {
    await refreshWith(server(list([entry(1), entry(2)], { tickets: signedTickets([ticket(1)]) })));
    await checkInOnDevice('1', at('07:00'));
    for (let index = 0; index < GATE_SYNC_MAX_SCANS - 1; index++) {
      await countWalkIn(new Date(at('08:00').getTime() + index * 1000));
    }
    await checkInOnDevice('2', at('09:00'));
    const answer = { scans: [], visitorScans: [], cursor: '2030-06-20T10:00:00.000Z' };
    const sent = server(answer, answer);
    await syncWith(sent);
    const bodies = sent.asked.map((call) => v.parse(GateSyncSchema, call.body));
    expect(bodies.map((body) => [body.scans.length, body.visitorScans.length])).toEqual([
      [1, GATE_SYNC_MAX_SCANS - 1],
      [1, 0],
    ]);
  }, 30_000);

  it('keeps the list, queue and name of a device from before visitor tickets (version 1)', async () => {
    const old = await openDB('schlosstreffen-gate', 1, {
      upgrade(database) {
        database.createObjectStore('meta');
        database.createObjectStore('device');
        database.createObjectStore('staff');
        const entries = database.createObjectStore('entries', { keyPath: 'id' });
        entries.createIndex('codeHash', 'codeHash', { unique: true });
        entries.createIndex('startNumber', 'startNumber', { unique: true });
        database.createObjectStore('scans', { keyPath: 'id' }).createIndex('state', 'state');
      },
    });
    const signed = list([entry(1)]).entries[0]!;
    await old.put('entries', { id: entry(1).id, codeHash: entry(1).codeHash, startNumber: 1, ...signed });
    await old.put(
      'meta',
      { publicKey: PUBLIC_KEY, cursor: 'c', fetchedAt: 'f', expiresAt: VALID_UNTIL, count: 1 },
      'list',
    );
    await old.put('device', { deviceId: 'd-1', gate: 'Tor Süd' }, 'device');
    old.close();

    expect(await gateMeta()).toMatchObject({ count: 1, tickets: null });
    expect((await gateDevice()).gate).toBe('Tor Süd');
    expect(await checkInOnDevice('1')).toMatchObject({ kind: 'checked-in' });
    expect(await visitorOnDevice(ticketCode(1), 'in')).toEqual({ kind: 'unknown' });
    expect(await countWalkIn()).toMatchObject({ kind: 'walk_in' });
  });
});
