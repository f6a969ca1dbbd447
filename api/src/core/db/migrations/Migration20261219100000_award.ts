import { Migration } from '@mikro-orm/migrations';

/**
 * The visitors' award ('Publikumsliebling'): per edition its moments and final totals; the voters
 * (one per address and edition) and their votes, at most three per voter (one per slot).
 */
export class Migration20261219100000_award extends Migration {
  override name = 'Migration20261219100000_award';

  override up(): void | Promise<void> {
    this.addSql(`create table "award" (
      "edition_id" uuid not null references "edition" ("id") on update cascade on delete cascade,
      "opens_at" timestamptz null,
      "closes_at" timestamptz null,
      "opened_at" timestamptz null,
      "closed_at" timestamptz null,
      "results" jsonb null,
      "certificates" jsonb null,
      "created_at" timestamptz not null default now(),
      primary key ("edition_id"));`);
    this.addSql(`create table "award_voter" (
      "id" uuid not null,
      "edition_id" uuid not null references "edition" ("id") on update cascade on delete cascade,
      "email" varchar(254) not null,
      "confirmed_at" timestamptz null,
      "confirmed_via" text check ("confirmed_via" in ('link', 'visitor', 'account')) null,
      "network" varchar(64) not null,
      "confirmation_sent_at" timestamptz null,
      "created_at" timestamptz not null default now(),
      primary key ("id"));`);
    this.addSql(
      `alter table "award_voter" add constraint "award_voter_edition_id_email_unique" unique ("edition_id", "email");`,
    );
    this.addSql(`create table "award_vote" (
      "voter_id" uuid not null references "award_voter" ("id") on update cascade on delete cascade,
      "vehicle_id" uuid not null references "vehicle" ("id") on update cascade on delete cascade,
      "edition_id" uuid not null references "edition" ("id") on update cascade on delete cascade,
      "slot" smallint not null check ("slot" between 1 and 3),
      "network" varchar(64) not null,
      "created_at" timestamptz not null default now(),
      primary key ("voter_id", "vehicle_id"));`);
    this.addSql(
      `alter table "award_vote" add constraint "award_vote_voter_id_slot_unique" unique ("voter_id", "slot");`,
    );
    this.addSql(
      `create index "award_vote_edition_id_vehicle_id_index" on "award_vote" ("edition_id", "vehicle_id");`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "award_vote" cascade;`);
    this.addSql(`drop table if exists "award_voter" cascade;`);
    this.addSql(`drop table if exists "award" cascade;`);
  }
}
