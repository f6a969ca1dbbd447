import { Migration } from '@mikro-orm/migrations';

/**
 * Visitor tickets at the gate: every scan of a ticket (in, out, or a walk-in counted at the day's
 * till) kept under the device's id for it, with what it counts as; per ticket where it stands
 * (first entry, inside now, the latest scan counted) for the gates' lists. A scan outlives its
 * ticket (the ticket's deletion leaves it without one): the edition's counts stay.
 */
export class Migration20261227000000_visitor_gate extends Migration {
  override name = 'Migration20261227000000_visitor_gate';

  override up(): void | Promise<void> {
    this.addSql(
      `alter table "visitor_ticket" add column "first_in_at" timestamptz null, add column "first_in_gate" varchar(40) null, add column "inside" boolean not null default false, add column "last_scan_at" timestamptz null, add column "gate_changed_at" timestamptz null;`,
    );
    this.addSql(
      `create table "visitor_ticket_scan" ("id" uuid not null, "edition_id" uuid not null, "ticket_id" uuid null, "kind" text check ("kind" in ('in', 'out', 'walk_in')) not null, "result" text check ("result" in ('admitted', 'readmitted', 'duplicate', 'exited', 'not_inside')) not null, "device_id" uuid null, "gate" varchar(40) not null, "scanned_at" timestamptz not null, "received_at" timestamptz not null default now(), "result_changed_at" timestamptz not null, "staff_id" uuid null, primary key ("id"));`,
    );
    this.addSql(
      `create index "visitor_ticket_scan_ticket_index" on "visitor_ticket_scan" ("ticket_id", "scanned_at", "id");`,
    );
    this.addSql(
      `create index "visitor_ticket_scan_device_index" on "visitor_ticket_scan" ("device_id", "result_changed_at");`,
    );
    this.addSql(
      `create index "visitor_ticket_scan_edition_index" on "visitor_ticket_scan" ("edition_id", "kind", "result");`,
    );
    this.addSql(
      `alter table "visitor_ticket_scan" add constraint "visitor_ticket_scan_edition_id_foreign" foreign key ("edition_id") references "edition" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "visitor_ticket_scan" add constraint "visitor_ticket_scan_ticket_id_foreign" foreign key ("ticket_id") references "visitor_ticket" ("id") on update cascade on delete set null;`,
    );
    this.addSql(
      `alter table "visitor_ticket_scan" add constraint "visitor_ticket_scan_staff_id_foreign" foreign key ("staff_id") references "users" ("id") on update cascade on delete set null;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "visitor_ticket_scan" cascade;`);
    this.addSql(
      `alter table "visitor_ticket" drop column if exists "first_in_at", drop column if exists "first_in_gate", drop column if exists "inside", drop column if exists "last_scan_at", drop column if exists "gate_changed_at";`,
    );
  }
}
