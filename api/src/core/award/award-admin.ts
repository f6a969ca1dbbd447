import type { EntityManager } from '@mikro-orm/postgresql';
import { isOverPhase, vehicleDisplayName } from '@schlosstreffen/shared';
import type { AwardAdminView, AwardRankingRow } from '@schlosstreffen/shared/api';
import { editionOfYear } from '../editions/editions.js';
import { editionPhaseOf } from '../editions/frozen.js';
import { Award } from '../model/award.entity.js';
import { objectPathOf } from '../storage/objects.js';
import { awardStateAt, meetingDays, ranked } from './award.js';
import { confirmationFigures, tally, votesPerNetwork } from './award.queries.js';
import { shownNetwork } from './network.js';

/** Networks the admin view lists at most (the most votes first). */
const NETWORKS_SHOWN = 30;

/**
 * The admin's view of an edition's voting: the live ranking (the final one after closing), totals,
 * the share of votes whose address was confirmed on a day of the meeting, and votes per network.
 */
export async function awardAdminView(em: EntityManager, year: number, at: Date): Promise<AwardAdminView> {
  const edition = await editionOfYear(em, year);
  const award = await em.findOne(Award, { edition: edition.id });
  const rows = await tally(em, edition.id);
  const certificates = award?.certificates ?? {};
  const certificateUrl = (vehicleId: string) =>
    certificates[vehicleId] ? objectPathOf(certificates[vehicleId]) : null;
  const pendingOf = new Map(rows.map((row) => [row.vehicleId, row.pending]));
  const ranking: AwardRankingRow[] = award?.results
    ? award.results.map((row) => ({
        ...row,
        pending: pendingOf.get(row.vehicleId) ?? 0,
        certificateUrl: certificateUrl(row.vehicleId),
      }))
    : ranked(rows.filter((row) => row.votes > 0 || row.pending > 0)).map((row) => ({
        rank: row.rank,
        vehicleId: row.vehicleId,
        startNumber: row.startNumber,
        name: vehicleDisplayName(row),
        votes: row.votes,
        pending: row.pending,
        certificateUrl: null,
      }));
  const figures = await confirmationFigures(em, edition.id, meetingDays(edition));
  const networks = new Map<string, { network: string; votes: number; pending: number; voters: number }>();
  for (const row of await votesPerNetwork(em, edition.id)) {
    const network = shownNetwork(row.network);
    const entry = networks.get(network) ?? { network, votes: 0, pending: 0, voters: 0 };
    entry.votes += row.votes;
    entry.pending += row.pending;
    entry.voters += row.voters;
    networks.set(network, entry);
  }
  const state = awardStateAt(award, edition, at);
  // A set moment takes effect at once; the scheduler's tick records it later.
  const closing = award?.closesAt && award.closesAt < edition.endsAt ? award.closesAt : edition.endsAt;
  const openedAt = award?.openedAt ?? (state !== 'not_open' ? award?.opensAt : null);
  const closedAt = award?.closedAt ?? (state === 'closed' ? closing : null);
  return {
    year,
    editionName: edition.name,
    state,
    opensAt: award?.opensAt?.toISOString() ?? null,
    closesAt: award?.closesAt?.toISOString() ?? null,
    openedAt: openedAt?.toISOString() ?? null,
    closedAt: closedAt?.toISOString() ?? null,
    ranking,
    totalVotes: figures.counted,
    pendingVotes: rows.reduce((sum, row) => sum + row.pending, 0),
    confirmedVoters: figures.voters,
    confirmedOnMeetingDayShare: figures.counted ? figures.onMeetingDay / figures.counted : 0,
    networks: [...networks.values()]
      .sort((a, b) => b.votes + b.pending - (a.votes + a.pending))
      .slice(0, NETWORKS_SHOWN),
    final: Boolean(award?.results),
    over: isOverPhase((await editionPhaseOf(em, edition.id, at)).phase),
    corrections: award?.corrections ?? [],
  };
}
