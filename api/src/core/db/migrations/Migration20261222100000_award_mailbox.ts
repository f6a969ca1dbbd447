import { Migration } from '@mikro-orm/migrations';
import { AWARD_VOTES_PER_VOTER, mailboxOf } from '@schlosstreffen/shared';

/** Rows as the driver reads them here: moments as text. */
interface VoterRow {
  id: string;
  edition_id: string;
  email: string;
  confirmed_at: string | null;
  confirmed_via: string | null;
  confirmation_sent_at: string | null;
  created_at: string;
}

interface VoteRow {
  voter_id: string;
  vehicle_id: string;
  edition_id: string;
  network: string;
  browser: string;
  created_at: string;
}

/** The first `limit` votes of the list (in the order cast), one a car. */
function earliest(votes: VoteRow[], limit: number): VoteRow[] {
  const kept: VoteRow[] = [];
  for (const vote of votes) {
    if (kept.length >= limit) break;
    if (!kept.some((other) => other.vehicle_id === vote.vehicle_id)) kept.push(vote);
  }
  return kept;
}

/**
 * The visitors' award tells voters apart by mailbox (`mailboxOf`), not by the address's spelling,
 * and keeps waiting votes per browser:
 * - A vote that counts holds '' as its browser (no longer null); the primary key becomes (voter,
 *   browser, vehicle) and the slots unique per (voter, browser): three counted votes a voter, three
 *   waiting ones a browser, none giving way to another browser's.
 * - The voters of one mailbox in an edition become one (the key (edition, mailbox) holds): the voter
 *   confirmed first, else the first, stays, confirmed from the earliest confirmation; it keeps one
 *   vote a car, the earliest three counted ones, and per browser the earliest three waiting ones.
 *   The final totals written when an edition's voting closed stay as they are. The numbers merged
 *   go to the migrator's log.
 * - A visitor sign-up carries its address's mailbox, which the award's confirmation looks up.
 */
export class Migration20261222100000_award_mailbox extends Migration {
  override name = 'Migration20261222100000_award_mailbox';

  override async up(): Promise<void> {
    await this.execute(`update "award_vote" set "browser" = '' where "browser" is null;`);
    await this.execute(
      `alter table "award_vote" alter column "browser" set default '', alter column "browser" set not null;`,
    );
    await this.execute(`alter table "award_vote" drop constraint "award_vote_pkey";`);
    await this.execute(`alter table "award_vote" drop constraint "award_vote_voter_id_slot_unique";`);
    await this.execute(
      `alter table "award_vote" add constraint "award_vote_pkey" primary key ("voter_id", "browser", "vehicle_id");`,
    );
    await this.execute(
      `alter table "award_vote" add constraint "award_vote_voter_id_browser_slot_unique" unique ("voter_id", "browser", "slot");`,
    );

    await this.execute(`alter table "award_voter" add column "mailbox" varchar(254) null;`);
    const voters = (await this.execute(
      `select "id", "edition_id", "email", "confirmed_at", "confirmed_via", "confirmation_sent_at", "created_at"
         from "award_voter" order by "created_at", "id";`,
    )) as VoterRow[];
    const groups = new Map<string, VoterRow[]>();
    for (const voter of voters) {
      const key = `${voter.edition_id} ${mailboxOf(voter.email)}`;
      groups.set(key, [...(groups.get(key) ?? []), voter]);
    }
    let merged = { mailboxes: 0, voters: 0, votes: 0, dropped: 0 };
    for (const group of groups.values()) if (group.length > 1) merged = await this.merge(group, merged);
    await this.fillMailboxes('award_voter');
    await this.execute(`alter table "award_voter" alter column "mailbox" set not null;`);
    await this.execute(`alter table "award_voter" drop constraint "award_voter_edition_id_email_unique";`);
    await this.execute(`alter table "award_voter" drop column "email";`);
    await this.execute(
      `alter table "award_voter" add constraint "award_voter_edition_id_mailbox_unique" unique ("edition_id", "mailbox");`,
    );

    await this.execute(`alter table "visitor_registration" add column "mailbox" varchar(254) null;`);
    await this.fillMailboxes('visitor_registration');
    await this.execute(`alter table "visitor_registration" alter column "mailbox" set not null;`);
    await this.execute(
      `create index "visitor_registration_edition_id_mailbox_index" on "visitor_registration" ("edition_id", "mailbox");`,
    );
    // Through the migrator's logger: the api and worker write it as a line of the one logger.
    this.config
      .getLogger()
      .log(
        'migrator',
        `Award voters merged by mailbox: ${merged.mailboxes} mailboxes, ${merged.voters} voters merged away, ${merged.votes} votes moved to the kept voter, ${merged.dropped} votes dropped`,
        { enabled: true },
      );
  }

  /** Writes each row's mailbox, from its address. */
  private async fillMailboxes(table: 'award_voter' | 'visitor_registration'): Promise<void> {
    const rows = (await this.execute(`select "id", "email" from "${table}";`)) as {
      id: string;
      email: string;
    }[];
    await this.execute(
      `update "${table}" t set "mailbox" = m."mailbox"
         from jsonb_to_recordset(?::jsonb) as m("id" uuid, "mailbox" text) where t."id" = m."id";`,
      [JSON.stringify(rows.map((row) => ({ id: row.id, mailbox: mailboxOf(row.email) })))],
    );
  }

  /** Makes the voters of one mailbox in one edition one; returns the running counts. */
  private async merge(
    group: VoterRow[],
    counts: { mailboxes: number; voters: number; votes: number; dropped: number },
  ) {
    const keeper = keeperOf(group);
    const ids = group.map((voter) => voter.id);
    const votes = (await this.execute(
      `select "voter_id", "vehicle_id", "edition_id", "network", "browser", "created_at"
         from "award_vote" where "voter_id" = any(?::uuid[]) order by "created_at", "slot";`,
      [`{${ids.join(',')}}`],
    )) as VoteRow[];
    const browsers = [...new Set(votes.map((vote) => vote.browser).filter(Boolean))];
    const kept = [
      earliest(
        votes.filter((vote) => vote.browser === ''),
        AWARD_VOTES_PER_VOTER,
      ),
      ...browsers.map((browser) =>
        earliest(
          votes.filter((vote) => vote.browser === browser),
          AWARD_VOTES_PER_VOTER,
        ),
      ),
    ];
    const sent = group.map((voter) => voter.confirmation_sent_at).filter((at) => at !== null);
    await this.execute(`delete from "award_vote" where "voter_id" = any(?::uuid[]);`, [`{${ids.join(',')}}`]);
    await this.execute(`delete from "award_voter" where "id" = any(?::uuid[]) and "id" <> ?;`, [
      `{${ids.join(',')}}`,
      keeper.id,
    ]);
    await this.execute(
      `update "award_voter" set "confirmed_at" = ?, "confirmed_via" = ?, "confirmation_sent_at" = ?, "created_at" = ?
        where "id" = ?;`,
      [
        keeper.confirmed_at,
        keeper.confirmed_via,
        sent.length ? new Date(Math.max(...sent.map((at) => new Date(at).getTime()))) : null,
        group[0]!.created_at,
        keeper.id,
      ],
    );
    const rows = kept.flatMap((list) => list.map((vote, index) => ({ ...vote, slot: index + 1 })));
    await this.execute(
      `insert into "award_vote" ("voter_id", "vehicle_id", "edition_id", "slot", "network", "browser", "created_at")
       select ?, m."vehicle_id", m."edition_id", m."slot", m."network", m."browser", m."created_at"
         from jsonb_to_recordset(?::jsonb) as m("vehicle_id" uuid, "edition_id" uuid, "slot" smallint,
              "network" varchar(64), "browser" varchar(64), "created_at" timestamptz);`,
      [keeper.id, JSON.stringify(rows)],
    );
    return {
      mailboxes: counts.mailboxes + 1,
      voters: counts.voters + group.length - 1,
      votes: counts.votes + rows.filter((vote) => vote.voter_id !== keeper.id).length,
      dropped: counts.dropped + votes.length - rows.length,
    };
  }

  override async down(): Promise<void> {
    await this.execute(`drop index "visitor_registration_edition_id_mailbox_index";`);
    await this.execute(`alter table "visitor_registration" drop column "mailbox";`);
    await this.execute(`alter table "award_voter" add column "email" varchar(254) null;`);
    await this.execute(`update "award_voter" set "email" = "mailbox";`);
    await this.execute(`alter table "award_voter" alter column "email" set not null;`);
    await this.execute(`alter table "award_voter" drop constraint "award_voter_edition_id_mailbox_unique";`);
    await this.execute(`alter table "award_voter" drop column "mailbox";`);
    await this.execute(
      `alter table "award_voter" add constraint "award_voter_edition_id_email_unique" unique ("edition_id", "email");`,
    );
    // Waiting votes of several browsers do not fit one voter's three slots: they go.
    await this.execute(`delete from "award_vote" where "browser" <> '';`);
    await this.execute(`alter table "award_vote" drop constraint "award_vote_pkey";`);
    await this.execute(`alter table "award_vote" drop constraint "award_vote_voter_id_browser_slot_unique";`);
    await this.execute(
      `alter table "award_vote" alter column "browser" drop not null, alter column "browser" drop default;`,
    );
    await this.execute(`update "award_vote" set "browser" = null;`);
    await this.execute(
      `alter table "award_vote" add constraint "award_vote_pkey" primary key ("voter_id", "vehicle_id");`,
    );
    await this.execute(
      `alter table "award_vote" add constraint "award_vote_voter_id_slot_unique" unique ("voter_id", "slot");`,
    );
  }
}

/** The voter of a mailbox that stays: the one confirmed first, else the first one. */
function keeperOf(group: VoterRow[]): VoterRow {
  const confirmed = group
    .filter((voter) => voter.confirmed_at)
    .sort((a, b) => new Date(a.confirmed_at!).getTime() - new Date(b.confirmed_at!).getTime());
  return confirmed[0] ?? group[0]!;
}
