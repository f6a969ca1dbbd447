import { createHash, createHmac, createPrivateKey, createPublicKey, sign, type KeyObject } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ONLINE_GATE, vehicleDisplayName } from '@schlosstreffen/shared';
import { Edition } from '../model/edition.entity.js';
import { gateTicketsPart } from './visitor-gate.js';
import { countOnList, gateListRows } from './check-in.queries.js';
import type { GateEntryData, GateList, GateTicketsData, SignedGateEntry } from '@schlosstreffen/shared/api';

/** A device keeps its list until the day after the event. */
export const GATE_LIST_GRACE_MS = 24 * 60 * 60 * 1000;

/**
 * Changes are looked up this far before the cursor: a transaction that began earlier but committed
 * after the last answer still shows up. Entries merge by id, so seeing one twice does no harm.
 */
const CURSOR_OVERLAP_MS = 60_000;

// PKCS#8 wrapping of a raw 32-byte Ed25519 seed.
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

export interface GateSigner {
  privateKey: KeyObject;
  /** Raw 32-byte public key, base64. */
  publicKey: string;
}

/**
 * The Ed25519 key the gate lists are signed with, derived from the session secret: every API
 * process of a deployment signs with the same key, and rotating the secret rotates it (devices then
 * load their list anew).
 */
export function gateSigner(secret: string): GateSigner {
  const seed = createHmac('sha256', secret).update('schlosstreffen gate list v1').digest();
  const privateKey = createPrivateKey({
    key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]),
    format: 'der',
    type: 'pkcs8',
  });
  const spki = createPublicKey(privateKey).export({ format: 'der', type: 'spki' });
  // The raw key is the last 32 bytes of the SPKI structure.
  return { privateKey, publicKey: spki.subarray(spki.length - 32).toString('base64') };
}

/** SHA-256 of a check-in code, hex: what the gate list holds instead of the code. */
export function checkInCodeHash(code: string): string {
  return createHash('sha256').update(code, 'utf8').digest('hex');
}

/** Signs an entry of the list (a car, or the visitor tickets' part as a whole). */
export function signEntry(signer: GateSigner, data: GateEntryData | GateTicketsData): SignedGateEntry {
  const json = JSON.stringify(data);
  return { data: json, sig: sign(null, Buffer.from(json, 'utf8'), signer.privateKey).toString('base64') };
}

/**
 * The gate list: whole, or (with `since`, a cursor of an earlier answer) the entries that changed and
 * the invitations that left the list since then.
 */
export async function loadGateList(
  em: EntityManager,
  /** The list of one edition (the current one's): its invitations, valid until its end. */
  options: { signer: GateSigner; editionId: string; eventEnd: Date; since?: Date; now?: Date },
): Promise<GateList> {
  const now = options.now ?? new Date();
  const since = options.since ? new Date(options.since.getTime() - CURSOR_OVERLAP_MS) : null;
  const rows = await gateListRows(em, options.editionId, since);
  const total = await countOnList(em, options.editionId);
  const validUntil = new Date(options.eventEnd.getTime() + GATE_LIST_GRACE_MS).toISOString();
  const entries: SignedGateEntry[] = [];
  const removed: string[] = [];
  for (const row of rows) {
    if (!row.on_list) {
      removed.push(row.id);
      continue;
    }
    entries.push(
      signEntry(options.signer, {
        id: row.id,
        startNumber: row.start_number,
        name: vehicleDisplayName(row),
        brand: row.brand,
        model: row.model,
        color: row.color,
        zone: row.parking_zone,
        codeHash: checkInCodeHash(row.qr_code),
        confirmed: row.status === 'confirmed',
        feeOpenCents: row.fee_open_cents,
        checkedInAt: row.checked_in_at ? new Date(row.checked_in_at).toISOString() : null,
        gate: row.checked_in_at ? (row.gate ?? ONLINE_GATE) : null,
        validUntil,
      }),
    );
  }
  const edition = await em.findOneOrFail(Edition, options.editionId);
  // One signature for the tickets' part: thousands of them, checked once when the device stores them.
  const tickets = await gateTicketsPart(em, { edition, validUntil, since: options.since });
  return {
    publicKey: options.signer.publicKey,
    cursor: now.toISOString(),
    delta: since !== null,
    entries,
    removed,
    total,
    expiresAt: validUntil,
    tickets: tickets && signEntry(options.signer, tickets),
  };
}
