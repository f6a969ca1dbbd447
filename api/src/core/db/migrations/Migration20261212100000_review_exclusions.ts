import { Migration } from '@mikro-orm/migrations';

/**
 * Open reviews that a bias ended: the (application, reviewer) pair is never assigned again, also
 * after the bias is withdrawn. The row goes with the application and with the reviewer's account.
 */
export class Migration20261212100000_review_exclusions extends Migration {
  override name = 'Migration20261212100000_review_exclusions';

  override up(): void | Promise<void> {
    this.addSql(`create table "review_exclusion" (
      "id" uuid not null default gen_random_uuid() primary key,
      "edition_id" uuid not null references "edition" ("id") on delete cascade,
      "vehicle_id" uuid not null references "vehicle" ("id") on delete cascade,
      "reviewer_id" uuid not null references "users" ("id") on delete cascade,
      "created_at" timestamptz not null default now(),
      unique ("vehicle_id", "reviewer_id"));`);
    this.addSql(`create index "review_exclusion_edition_index" on "review_exclusion" ("edition_id");`);
    this.addSql(`create index "review_exclusion_reviewer_index" on "review_exclusion" ("reviewer_id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "review_exclusion";`);
  }
}
