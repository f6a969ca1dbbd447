import { Migration } from '@mikro-orm/migrations';

/**
 * Event updates to visitors ('Besucher-Updates'): the message, and one row per recipient with its
 * state. Recipients name the registration by id only; when it goes (unsubscribe, retention,
 * account deletion) the row keeps its state without the person.
 */
export class Migration20261127100000_visitor_updates extends Migration {
  override name = 'Migration20261127100000_visitor_updates';

  override up(): void | Promise<void> {
    this.addSql(`create table "visitor_update" (
      "id" uuid not null primary key,
      "subject" varchar(200) not null,
      "body" text not null,
      "status" text not null default 'draft' check ("status" in ('draft', 'sending', 'sent')),
      "revision" int not null default 1,
      "preview_html" text null,
      "preview_revision" int null,
      "created_by" uuid null references "users" ("id") on delete set null,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now(),
      "started_at" timestamptz null,
      "finished_at" timestamptz null,
      "total" int not null default 0
    );`);
    this.addSql(`create table "visitor_update_recipient" (
      "id" uuid not null primary key,
      "update_id" uuid not null references "visitor_update" ("id") on delete cascade,
      "registration_id" uuid null references "visitor_registration" ("id") on delete set null,
      "state" text not null default 'pending' check ("state" in ('pending', 'sending', 'sent', 'failed', 'unsubscribed')),
      "attempts" int not null default 0,
      "claimed_at" timestamptz null,
      "sent_at" timestamptz null,
      "error" text null
    );`);
    this.addSql(
      `create index "visitor_update_recipient_update_state_index" on "visitor_update_recipient" ("update_id", "state");`,
    );
    this.addSql(
      `create index "visitor_update_recipient_registration_index" on "visitor_update_recipient" ("registration_id");`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table "visitor_update_recipient";`);
    this.addSql(`drop table "visitor_update";`);
  }
}
