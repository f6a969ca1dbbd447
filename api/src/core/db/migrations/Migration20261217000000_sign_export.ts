import { Migration } from '@mikro-orm/migrations';

/** Windshield sign PDFs: one row per edition and format (the set) and one per car and format. */
export class Migration20261217000000_sign_export extends Migration {
  override name = 'Migration20261217000000_sign_export';

  override up(): void | Promise<void> {
    this.addSql(`create table "sign_export" (
      "id" uuid not null,
      "edition_id" uuid not null references "edition" ("id") on update cascade on delete cascade,
      "format" text check ("format" in ('a4', 'a5')) not null,
      "vehicle_id" uuid null references "vehicle" ("id") on update cascade on delete cascade,
      "status" text check ("status" in ('queued', 'rendering', 'ready', 'failed')) not null default 'queued',
      "progress" int not null default 0,
      "sign_count" int not null default 0,
      "file_key" varchar(255) null,
      "error" text null,
      "requested_at" timestamptz not null,
      "finished_at" timestamptz null,
      "created_at" timestamptz not null,
      primary key ("id"));`);
    this.addSql(
      `create unique index "sign_export_set_unique" on "sign_export" ("edition_id", "format") where "vehicle_id" is null;`,
    );
    this.addSql(
      `create unique index "sign_export_vehicle_unique" on "sign_export" ("vehicle_id", "format") where "vehicle_id" is not null;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "sign_export";`);
  }
}
