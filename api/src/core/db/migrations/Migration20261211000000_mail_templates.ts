import { Migration } from '@mikro-orm/migrations';

/**
 * The mails' texts per edition, versioned: each save is a row (edition, mail, version) naming its
 * editor, who goes with their account. The email log names the version a mail was rendered with
 * (0: the default text) and the edition it belongs to.
 */
export class Migration20261211000000_mail_templates extends Migration {
  override name = 'Migration20261211000000_mail_templates';

  override up(): void | Promise<void> {
    this.addSql(`create table "mail_template" (
      "id" uuid not null default gen_random_uuid() primary key,
      "edition_id" uuid not null references "edition" ("id") on delete cascade,
      "mail" varchar(40) not null,
      "version" int not null check ("version" >= 1),
      "subject" text not null,
      "body" text not null,
      "is_default" boolean not null default false,
      "created_by" uuid null references "users" ("id") on delete set null,
      "created_at" timestamptz not null,
      unique ("edition_id", "mail", "version")
    );`);
    this.addSql(`create index "mail_template_created_by_index" on "mail_template" ("created_by");`);
    this.addSql(
      `alter table "email_log" add column "template_version" int null, add column "template_edition_id" uuid null references "edition" ("id") on delete set null;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "email_log" drop column "template_version", drop column "template_edition_id";`);
    this.addSql(`drop table "mail_template";`);
  }
}
