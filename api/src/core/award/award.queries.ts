/** The visitors' award's SQL: casting a vote in one indexed write, counting, the admin's figures. */
import type { EntityManager } from '@mikro-orm/postgresql';
import { EVENT_TIMEZONE } from '@schlosstreffen/shared';
import { runStatement, selectRows } from '../db/db.queries.js';

/** A confirmed car of the edition by its start number (a released place has none). */
export async function carOfStartNumber(
  em: EntityManager,
  editionId: string,
  startNumber: number,
): Promise<{ vehicleId: string } | null> {
  const [row] = await selectRows<{ vehicle_id: string }>(
    em,
    `select i.vehicle_id from invitation i join vehicle v on v.id = i.vehicle_id
      where i.edition_id = ? and i.start_number = ? and i.released_at is null and v.status = 'confirmed'`,
    [editionId, startNumber],
  );
  return row ? { vehicleId: row.vehicle_id } : null;
}

/**
 * One vote in the voter's first free slot (1–3); the unique (voter, slot) holds every voter to three
 * votes however many arrive at once, the primary key (voter, vehicle) to one per car. Returns
 * whether a row was written.
 */
export async function insertVote(
  em: EntityManager,
  vote: {
    voterId: string;
    vehicleId: string;
    editionId: string;
    network: string;
    at: Date;
    /** The casting browser of a pending vote; null for one that counts at once. */
    browser: string | null;
  },
): Promise<boolean> {
  const written = await runStatement(
    em,
    `insert into award_vote (voter_id, vehicle_id, edition_id, slot, network, browser, created_at)
     select ?, ?, ?, s, ?, ?, ? from generate_series(1, 3) s
      where not exists (select 1 from award_vote where voter_id = ? and slot = s)
      order by s limit 1
     on conflict do nothing`,
    [vote.voterId, vote.vehicleId, vote.editionId, vote.network, vote.browser, vote.at, vote.voterId],
  );
  return written > 0;
}

export async function deleteVote(em: EntityManager, voterId: string, vehicleId: string): Promise<number> {
  return runStatement(em, `delete from award_vote where voter_id = ? and vehicle_id = ?`, [
    voterId,
    vehicleId,
  ]);
}

/**
 * A pending address's votes from other browsers than the one voting now give way to it: the votes
 * waiting on an unconfirmed address are those of one browser at a time.
 */
export async function dropVotesOfOtherBrowsers(em: EntityManager, voterId: string, browser: string) {
  return runStatement(em, `delete from award_vote where voter_id = ? and browser <> ?`, [voterId, browser]);
}

/** A confirmed voter's own vote makes room: the votes still waiting for another browser go. */
export async function dropWaitingVotes(em: EntityManager, voterId: string) {
  return runStatement(em, `delete from award_vote where voter_id = ? and browser is not null`, [voterId]);
}

/** The waiting vote for the car counts from now on. */
export async function countWaitingVote(em: EntityManager, voterId: string, vehicleId: string) {
  return runStatement(em, `update award_vote set browser = null where voter_id = ? and vehicle_id = ?`, [
    voterId,
    vehicleId,
  ]);
}

/** Confirming: the pending votes kept count from now on (no browser), the others go. */
export async function settlePendingVotes(em: EntityManager, voterId: string, keep: string[]) {
  await runStatement(
    em,
    `delete from award_vote where voter_id = ? and browser is not null and not (vehicle_id = any(?::uuid[]))`,
    [voterId, `{${keep.join(',')}}`],
  );
  await runStatement(em, `update award_vote set browser = null where voter_id = ? and browser is not null`, [
    voterId,
  ]);
}

/** The start numbers a voter voted for, in the order cast. */
export async function votesOfVoter(
  em: EntityManager,
  voterId: string,
): Promise<{ startNumber: number; vehicleId: string; car: string; at: Date; browser: string | null }[]> {
  const rows = await selectRows<{
    start_number: number;
    vehicle_id: string;
    name: string | null;
    brand: string;
    model: string;
    created_at: Date;
    browser: string | null;
  }>(
    em,
    `select i.start_number, a.vehicle_id, v.name, v.brand, v.model, a.created_at, a.browser
       from award_vote a join vehicle v on v.id = a.vehicle_id join invitation i on i.vehicle_id = a.vehicle_id
      where a.voter_id = ? order by a.created_at, a.slot`,
    [voterId],
  );
  return rows.map((row) => ({
    startNumber: row.start_number,
    vehicleId: row.vehicle_id,
    car: row.name?.trim() || `${row.brand} ${row.model}`,
    at: new Date(row.created_at),
    browser: row.browser,
  }));
}

export interface TallyRow {
  vehicleId: string;
  startNumber: number;
  name: string | null;
  brand: string;
  model: string;
  votes: number;
  pending: number;
}

/** Counted (confirmed address) and pending votes per car of the edition, most votes first. */
export async function tally(em: EntityManager, editionId: string): Promise<TallyRow[]> {
  const rows = await selectRows<{
    vehicle_id: string;
    start_number: number;
    name: string | null;
    brand: string;
    model: string;
    votes: string;
    pending: string;
  }>(
    em,
    `select a.vehicle_id, i.start_number, v.name, v.brand, v.model,
            count(*) filter (where r.confirmed_at is not null and a.browser is null) as votes,
            count(*) filter (where r.confirmed_at is null or a.browser is not null) as pending
       from award_vote a
       join award_voter r on r.id = a.voter_id
       join vehicle v on v.id = a.vehicle_id
       join invitation i on i.vehicle_id = a.vehicle_id
      where a.edition_id = ?
      group by a.vehicle_id, i.start_number, v.name, v.brand, v.model
      order by votes desc, i.start_number`,
    [editionId],
  );
  return rows.map((row) => ({
    vehicleId: row.vehicle_id,
    startNumber: row.start_number,
    name: row.name,
    brand: row.brand,
    model: row.model,
    votes: Number(row.votes),
    pending: Number(row.pending),
  }));
}

/** Counted votes, those whose address was confirmed on a day of the meeting, and confirmed voters. */
export async function confirmationFigures(
  em: EntityManager,
  editionId: string,
  meetingDays: { from: string; to: string },
): Promise<{ counted: number; onMeetingDay: number; voters: number }> {
  const [row] = await selectRows<{ counted: string; on_day: string; voters: string }>(
    em,
    `select count(a.*) as counted,
            count(a.*) filter (where (r.confirmed_at at time zone '${EVENT_TIMEZONE}')::date between ?::date and ?::date) as on_day,
            (select count(*) from award_voter where edition_id = ? and confirmed_at is not null) as voters
       from award_vote a join award_voter r on r.id = a.voter_id
      where a.edition_id = ? and r.confirmed_at is not null and a.browser is null`,
    [meetingDays.from, meetingDays.to, editionId, editionId],
  );
  return {
    counted: Number(row?.counted ?? 0),
    onMeetingDay: Number(row?.on_day ?? 0),
    voters: Number(row?.voters ?? 0),
  };
}

/** Votes (counted and pending) and voters per stored network. */
export async function votesPerNetwork(
  em: EntityManager,
  editionId: string,
): Promise<{ network: string; votes: number; pending: number; voters: number }[]> {
  const rows = await selectRows<{ network: string; votes: string; pending: string; voters: string }>(
    em,
    `select a.network,
            count(*) filter (where r.confirmed_at is not null and a.browser is null) as votes,
            count(*) filter (where r.confirmed_at is null or a.browser is not null) as pending,
            count(distinct a.voter_id) as voters
       from award_vote a join award_voter r on r.id = a.voter_id
      where a.edition_id = ? group by a.network`,
    [editionId],
  );
  return rows.map((row) => ({
    network: row.network,
    votes: Number(row.votes),
    pending: Number(row.pending),
    voters: Number(row.voters),
  }));
}

/** A confirmed visitor sign-up of the edition for the address: when it was confirmed. */
export async function visitorConfirmedAt(
  em: EntityManager,
  editionId: string,
  email: string,
): Promise<Date | null> {
  const [row] = await selectRows<{ confirmed_at: Date }>(
    em,
    `select confirmed_at from visitor_registration
      where edition_id = ? and email = ? and confirmed_at is not null and unsubscribed_at is null`,
    [editionId, email],
  );
  return row ? new Date(row.confirmed_at) : null;
}

/** The edition's award row, created on first use. */
export async function ensureAwardRow(em: EntityManager, editionId: string): Promise<void> {
  await runStatement(
    em,
    `insert into award (edition_id, created_at) values (?, now()) on conflict do nothing`,
    [editionId],
  );
}

/** The address's voter row of the edition, created unconfirmed on first use. */
export async function ensureVoterRow(
  em: EntityManager,
  voter: { id: string; editionId: string; email: string; network: string; at: Date },
): Promise<void> {
  await runStatement(
    em,
    `insert into award_voter (id, edition_id, email, network, created_at) values (?, ?, ?, ?, ?)
     on conflict (edition_id, email) do nothing`,
    [voter.id, voter.editionId, voter.email, voter.network, voter.at],
  );
}
