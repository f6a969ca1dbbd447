import { chunked, GATE_SYNC_MAX_SCANS } from '@schlosstreffen/shared';
import type { GateList, GateSyncResult } from '@schlosstreffen/shared/api';
import { api } from '../../lib/api';
import {
  gateDevice,
  gateMeta,
  pendingScans,
  pendingVisitorScans,
  queuedScans,
  storeGateList,
  storeSyncAnswer,
  verifyGateList,
  verifyGateTickets,
  type GateMeta,
  type QueuedScan,
  type QueuedVisitorScan,
} from './gate-store';

const loadList = (since?: string) =>
  api.get<GateList>(`/api/admin/check-in/list${since ? `?since=${encodeURIComponent(since)}` : ''}`);

/**
 * Verifies a list the server sent (cars and the tickets' part) and stores it; `countsDiffer`: the
 * device now holds other counts than the server's (after a delta, something left the list unseen).
 */
async function store(list: GateList): Promise<{ meta: GateMeta; countsDiffer: boolean }> {
  const [entries, tickets] = await Promise.all([verifyGateList(list), verifyGateTickets(list)]);
  const meta = await storeGateList(list, entries, tickets);
  return {
    meta,
    countsDiffer: meta.count !== list.total || (tickets !== null && meta.tickets?.count !== tickets.total),
  };
}

/**
 * Loads the list from the server: only the changes when this device holds a list of the same key,
 * else the whole. Every entry's signature, and that of the visitor tickets' part, is checked before
 * it is stored; a list that fails the check is refused whole (GateListError). A failed call throws
 * the API client's error.
 */
export async function refreshGateList(): Promise<GateMeta> {
  const meta = await gateMeta();
  let list = await loadList(meta?.cursor);
  if (list.delta && meta && meta.publicKey !== list.publicKey) list = await loadList();
  const stored = await store(list);
  if (list.delta && stored.countsDiffer) {
    // Something left the list unseen (an account deleted, a ticket given back): load it whole.
    return (await store(await loadList())).meta;
  }
  return stored.meta;
}

type Waiting = { car: QueuedScan } | { visitor: QueuedVisitorScan };

const scannedAt = (item: Waiting) => ('car' in item ? item.car.scannedAt : item.visitor.scannedAt);

/**
 * Sends every scan the server does not have yet, of cars and of visitors, oldest first, in chunks
 * of at most GATE_SYNC_MAX_SCANS (the server's limit per request, both kinds together), with the
 * cursor of the last answer: each answer names what the server made of the scans sent and of those
 * whose state changed since (a scan admitted here can turn out a duplicate when another gate was
 * earlier, or be refused with its reason: it stays on the device as refused and is not sent
 * again), and is merged into the queues with its new cursor. A chunk the server took is not sent
 * again. Throws when the server cannot be reached; what is left stays queued.
 */
export async function syncScans(): Promise<QueuedScan[]> {
  const [cars, visitors] = await Promise.all([pendingScans(), pendingVisitorScans()]);
  const waiting: Waiting[] = [
    ...cars.map((car) => ({ car })),
    ...visitors.map((visitor) => ({ visitor })),
  ].sort((a, b) => scannedAt(a).localeCompare(scannedAt(b)));
  // Even with nothing waiting, one request fetches what became of the scans sent before.
  for (const chunk of waiting.length ? chunked(waiting, GATE_SYNC_MAX_SCANS) : [[]]) {
    const device = await gateDevice();
    const answer = await api.post<GateSyncResult>('/api/admin/check-in/sync', {
      deviceId: device.deviceId,
      gate: device.gate,
      since: device.syncCursor,
      scans: chunk.flatMap((item) =>
        'car' in item
          ? [{ id: item.car.id, invitationId: item.car.invitationId, scannedAt: item.car.scannedAt }]
          : [],
      ),
      visitorScans: chunk.flatMap((item) =>
        'visitor' in item
          ? [
              {
                id: item.visitor.id,
                ticketId: item.visitor.ticketId,
                kind: item.visitor.kind,
                scannedAt: item.visitor.scannedAt,
              },
            ]
          : [],
      ),
    });
    await storeSyncAnswer(answer.scans, answer.cursor, answer.visitorScans ?? []);
  }
  return queuedScans();
}
