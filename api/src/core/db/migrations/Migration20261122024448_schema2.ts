import { Migration } from '@mikro-orm/migrations';

/** Public list read model, media rejection reason, visitor double opt-in, status log order. */
export class Migration20261122024448_schema2 extends Migration {
  override name = 'Migration20261122024448_schema2';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "public_vehicle" ("vehicle_id" uuid not null, "data" jsonb not null, "listed_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("vehicle_id"));`,
    );
    this.addSql(`create index "public_vehicle_listed_at_index" on "public_vehicle" ("listed_at");`);
    this.addSql(
      `alter table "public_vehicle" add constraint "public_vehicle_vehicle_id_foreign" foreign key ("vehicle_id") references "vehicle" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(`alter table "media" add "rejection_reason" text null;`);
    // One media row per stored object: deleting it must not pull the file from under another.
    this.addSql(`alter table "media" add constraint "media_url_unique" unique ("url");`);

    this.addSql(`drop index "visitor_registration_email_index";`);
    this.addSql(
      `alter table "visitor_registration" add "confirmed_at" timestamptz null, add "unsubscribed_at" timestamptz null, add "confirmation_sent_at" timestamptz null;`,
    );
    this.addSql(
      `alter table "visitor_registration" add constraint "visitor_registration_email_unique" unique ("email");`,
    );

    // Insertion order of the status log, unambiguous even for rows written in the same millisecond.
    this.addSql(`alter table "review" add "seq" bigint generated always as identity;`);
    this.addSql(`create index "review_vehicle_seq_index" on "review" ("vehicle_id", "seq");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "review_vehicle_seq_index";`);
    this.addSql(`alter table "review" drop column "seq";`);
    this.addSql(`alter table "visitor_registration" drop constraint "visitor_registration_email_unique";`);
    this.addSql(
      `alter table "visitor_registration" drop column "confirmed_at", drop column "unsubscribed_at", drop column "confirmation_sent_at";`,
    );
    this.addSql(`create index "visitor_registration_email_index" on "visitor_registration" ("email");`);
    this.addSql(`alter table "media" drop constraint "media_url_unique";`);
    this.addSql(`alter table "media" drop column "rejection_reason";`);
    this.addSql(`drop table if exists "public_vehicle" cascade;`);
  }
}
