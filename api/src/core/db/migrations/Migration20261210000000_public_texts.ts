import { Migration } from '@mikro-orm/migrations';

/**
 * The public texts per edition (introduction, event details, FAQ entries in order); a null column is
 * the default text. The editor of the last change goes with their account.
 */
export class Migration20261210000000_public_texts extends Migration {
  override name = 'Migration20261210000000_public_texts';

  override up(): void | Promise<void> {
    this.addSql(`create table "public_text" (
      "edition_id" uuid not null primary key references "edition" ("id") on delete cascade,
      "introduction" text null,
      "event_details" text null,
      "faq" jsonb null check ("faq" is null or jsonb_typeof("faq") = 'array'),
      "updated_by" uuid null references "users" ("id") on delete set null,
      "updated_at" timestamptz not null
    );`);
    this.addSql(`create index "public_text_updated_by_index" on "public_text" ("updated_by");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table "public_text";`);
  }
}
