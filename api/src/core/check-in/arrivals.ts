import type { EntityManager } from '@mikro-orm/postgresql';
import { vehicleDisplayName } from '@schlosstreffen/shared';
import type { ArrivalsBoard } from '@schlosstreffen/shared/api';
import { Edition } from '../model/edition.entity.js';
import { visitorBoard } from './visitor-gate.js';
import { arrivalsPerZone, arrivalTimes, recentScans } from './check-in.queries.js';

const BUCKET_MS = 15 * 60 * 1000;
const RECENT_SCANS = 15;
const TIMELINE_SPAN_MS = 24 * 60 * 60 * 1000;

/**
 * The 'Einlass' board: confirmed cars expected per zone against those in, arrivals per quarter
 * hour, the newest scans with their gate, and the visitors admitted and on the grounds.
 */
export async function arrivalsBoard(
  em: EntityManager,
  /** The edition whose arrivals these are, and its zones. */
  editionId: string,
  zones: Array<{ name: string }>,
  now = new Date(),
): Promise<ArrivalsBoard> {
  const edition = await em.findOneOrFail(Edition, editionId);
  const perZone = await arrivalsPerZone(em, editionId);
  const arrivals = await arrivalTimes(em, editionId);
  const recent = await recentScans(em, editionId, RECENT_SCANS);

  const names = [...zones.map((zone) => zone.name)];
  for (const row of perZone) if (!names.includes(row.zone)) names.push(row.zone);
  const zoneRows = names.map((name) => {
    const row = perZone.find((item) => item.zone === name);
    return { name, expected: row?.expected ?? 0, arrived: row?.arrived ?? 0 };
  });

  const timeline: ArrivalsBoard['timeline'] = [];
  if (arrivals.length > 0) {
    const times = arrivals.map((row) => new Date(row.at).getTime());
    const last = Math.floor(times[times.length - 1]! / BUCKET_MS) * BUCKET_MS;
    // The chart shows the day: at most the 24 hours up to the latest arrival.
    const first = Math.max(Math.floor(times[0]! / BUCKET_MS) * BUCKET_MS, last - TIMELINE_SPAN_MS);
    let total = times.filter((time) => time < first).length;
    let index = total;
    for (let at = first; at <= last; at += BUCKET_MS) {
      let arrived = 0;
      while (index < times.length && times[index]! < at + BUCKET_MS) {
        arrived += 1;
        index += 1;
      }
      total += arrived;
      timeline.push({ at: new Date(at).toISOString(), arrived, total });
    }
  }

  return {
    expected: zoneRows.reduce((sum, zone) => sum + zone.expected, 0),
    arrived: zoneRows.reduce((sum, zone) => sum + zone.arrived, 0),
    zones: zoneRows,
    timeline,
    recent: recent.map((row) => ({
      startNumber: row.start_number,
      name: vehicleDisplayName(row),
      zone: row.zone,
      gate: row.gate,
      scannedAt: new Date(row.scanned_at).toISOString(),
      result: row.admitted ? 'admitted' : 'duplicate',
    })),
    visitors: await visitorBoard(em, edition),
    updatedAt: now.toISOString(),
  };
}
