import { Migration } from '@mikro-orm/migrations';

/**
 * Visitor tickets: an edition's visitor capacity (null: pre-registration without tickets) and per
 * confirmed registration its ticket or its place on the waiting list.
 */
export class Migration20261226000000_visitor_tickets extends Migration {
  override name = 'Migration20261226000000_visitor_tickets';

  override up(): void | Promise<void> {
    this.addSql(`alter table "edition" add column "visitor_tickets" jsonb null;`);
    this.addSql(
      `create table "visitor_ticket" ("id" uuid not null, "edition_id" uuid not null, "registration_id" uuid not null, "state" text check ("state" in ('issued', 'waiting', 'returned')) not null, "secret_hash" varchar(64) null, "queued_at" timestamptz not null, "issued_at" timestamptz null, "returned_at" timestamptz null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `alter table "visitor_ticket" add constraint "visitor_ticket_registration_id_unique" unique ("registration_id");`,
    );
    this.addSql(
      `alter table "visitor_ticket" add constraint "visitor_ticket_secret_hash_unique" unique ("secret_hash");`,
    );
    this.addSql(
      `create index "visitor_ticket_edition_id_state_queued_at_index" on "visitor_ticket" ("edition_id", "state", "queued_at");`,
    );
    this.addSql(
      `alter table "visitor_ticket" add constraint "visitor_ticket_edition_id_foreign" foreign key ("edition_id") references "edition" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "visitor_ticket" add constraint "visitor_ticket_registration_id_foreign" foreign key ("registration_id") references "visitor_registration" ("id") on update cascade on delete cascade;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "visitor_ticket" cascade;`);
    this.addSql(`alter table "edition" drop column if exists "visitor_tickets";`);
  }
}
