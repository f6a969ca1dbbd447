import { Migration } from '@mikro-orm/migrations';

/** The erasures a restore replays, written with each erasure; copied to shared storage by the worker. */
export class Migration20261222000000_erasure_journal extends Migration {
  override name = 'Migration20261222000000_erasure_journal';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "erasure_journal" (
        "id" uuid not null primary key,
        "kind" text check ("kind" in ('account', 'visitor', 'award-voter', 'retention', 'consent', 'application', 'photo')) not null,
        "subject" varchar(64) null,
        "as_of" timestamptz null,
        "at" timestamptz not null default clock_timestamp(),
        "stored_at" timestamptz null);`,
    );
    this.addSql(`create index "erasure_journal_at_index" on "erasure_journal" ("at");`);
    this.addSql(
      `create index "erasure_journal_unstored_index" on "erasure_journal" ("at") where "stored_at" is null;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "erasure_journal";`);
  }
}
