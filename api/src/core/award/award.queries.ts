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

/** How a vote that counts stands in `award_vote.browser` (a waiting vote holds its browser's hash). */
const COUNTED = '';

/**
 * One vote in the first free slot (1–3) of the voter's counted votes, or of their waiting votes in
 * the casting browser; the unique (voter, browser, slot) holds each to three however many arrive at
 * once, the primary key (voter, browser, vehicle) to one per car. Returns whether a row was written.
 */
export async function insertVote(
  em: EntityManager,
  vote: {
    voterId: string;
    vehicleId: string;
    editionId: string;
    network: string;
    at: Date;
    /** The casting browser of a waiting vote; null for one that counts at once. */
    browser: string | null;
  },
): Promise<boolean> {
  const browser = vote.browser ?? COUNTED;
  const written = await runStatement(
    em,
    `insert into award_vote (voter_id, vehicle_id, edition_id, slot, network, browser, created_at)
     select ?, ?, ?, s, ?, ?, ? from generate_series(1, 3) s
      where not exists (select 1 from award_vote where voter_id = ? and browser = ? and slot = s)
      order by s limit 1
     on conflict do nothing`,
    [vote.voterId, vote.vehicleId, vote.editionId, vote.network, browser, vote.at, vote.voterId, browser],
  );
  return written > 0;
}

/** Takes back the voter's counted vote for the car. */
export async function deleteVote(em: EntityManager, voterId: string, vehicleId: string): Promise<number> {
  return runStatement(em, `delete from award_vote where voter_id = ? and vehicle_id = ? and browser = ?`, [
    voterId,
    vehicleId,
    COUNTED,
  ]);
}

/**
 * The earliest waiting vote for the car counts from now on, in the first free counted slot (cast
 * when and where it was). Returns false when the three counted slots are taken.
 */
export async function countWaitingVote(em: EntityManager, voterId: string, vehicleId: string) {
  const written = await runStatement(
    em,
    `insert into award_vote (voter_id, vehicle_id, edition_id, slot, network, browser, created_at)
     select w.voter_id, w.vehicle_id, w.edition_id, s, w.network, ?, w.created_at
       from (select * from award_vote where voter_id = ? and vehicle_id = ? and browser <> ?
              order by created_at limit 1) w
       cross join generate_series(1, 3) s
      where not exists (select 1 from award_vote where voter_id = w.voter_id and browser = ? and slot = s)
      order by s limit 1
     on conflict do nothing`,
    [COUNTED, voterId, vehicleId, COUNTED, COUNTED],
  );
  return written > 0;
}

/** The voter's waiting votes, of every browser, go (after confirming: those not picked). */
export async function dropWaitingVotes(em: EntityManager, voterId: string) {
  return runStatement(em, `delete from award_vote where voter_id = ? and browser <> ?`, [voterId, COUNTED]);
}

/** The voter's votes, in the order cast: `browser` null for one that counts, else the waiting vote's browser. */
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
    `select i.start_number, a.vehicle_id, v.name, v.brand, v.model, a.created_at, nullif(a.browser, ?) as browser
       from award_vote a join vehicle v on v.id = a.vehicle_id join invitation i on i.vehicle_id = a.vehicle_id
      where a.voter_id = ? order by a.created_at, a.slot`,
    [COUNTED, voterId],
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

/**
 * Counted votes (confirmed address) per car of the edition, most votes first, and the addresses with
 * a vote for it still waiting.
 */
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
            count(*) filter (where r.confirmed_at is not null and a.browser = ?) as votes,
            count(distinct a.voter_id) filter (where r.confirmed_at is null or a.browser <> ?) as pending
       from award_vote a
       join award_voter r on r.id = a.voter_id
       join vehicle v on v.id = a.vehicle_id
       join invitation i on i.vehicle_id = a.vehicle_id
      where a.edition_id = ?
      group by a.vehicle_id, i.start_number, v.name, v.brand, v.model
      order by votes desc, i.start_number`,
    [COUNTED, COUNTED, editionId],
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
      where a.edition_id = ? and r.confirmed_at is not null and a.browser = ?`,
    [meetingDays.from, meetingDays.to, editionId, editionId, COUNTED],
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
            count(*) filter (where r.confirmed_at is not null and a.browser = ?) as votes,
            count(*) filter (where r.confirmed_at is null or a.browser <> ?) as pending,
            count(distinct a.voter_id) as voters
       from award_vote a join award_voter r on r.id = a.voter_id
      where a.edition_id = ? group by a.network`,
    [COUNTED, COUNTED, editionId],
  );
  return rows.map((row) => ({
    network: row.network,
    votes: Number(row.votes),
    pending: Number(row.pending),
    voters: Number(row.voters),
  }));
}

/** A confirmed visitor sign-up of the edition for the mailbox (any spelling): when it was confirmed. */
export async function visitorConfirmedAt(
  em: EntityManager,
  editionId: string,
  mailbox: string,
): Promise<Date | null> {
  const [row] = await selectRows<{ confirmed_at: Date }>(
    em,
    `select confirmed_at from visitor_registration
      where edition_id = ? and mailbox = ? and confirmed_at is not null and unsubscribed_at is null
      order by confirmed_at limit 1`,
    [editionId, mailbox],
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

/** The mailbox's voter row of the edition, created unconfirmed on first use. */
export async function ensureVoterRow(
  em: EntityManager,
  voter: { id: string; editionId: string; mailbox: string; network: string; at: Date },
): Promise<void> {
  await runStatement(
    em,
    `insert into award_voter (id, edition_id, mailbox, network, created_at) values (?, ?, ?, ?, ?)
     on conflict (edition_id, mailbox) do nothing`,
    [voter.id, voter.editionId, voter.mailbox, voter.network, voter.at],
  );
}
