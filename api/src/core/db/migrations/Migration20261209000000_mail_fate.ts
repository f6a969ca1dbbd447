import { Migration } from '@mikro-orm/migrations';

/**
 * Every mail's fate: the email log tells an accepted mail from one the SMTP server defers (retried)
 * or refuses for good (with its answer), and from one held back because its address bounced; mails
 * about an application name the vehicle, and a resent mail points to its resend. An address a server
 * refused for good is marked until it is confirmed again or its account goes.
 */
export class Migration20261209000000_mail_fate extends Migration {
  override name = 'Migration20261209000000_mail_fate';

  override up(): void | Promise<void> {
    this.addSql(`alter table "email_log" drop constraint if exists "email_log_status_check";`);
    this.addSql(
      `alter table "email_log" add constraint "email_log_status_check" check ("status" in ('pending', 'sent', 'failed', 'deferred', 'refused', 'held'));`,
    );
    this.addSql(
      `alter table "email_log" add column "vehicle_id" uuid null, add column "resend_job_id" varchar(100) null;`,
    );
    this.addSql(
      `alter table "email_log" add constraint "email_log_vehicle_id_foreign" foreign key ("vehicle_id") references "vehicle" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(`create index "email_log_vehicle_id_index" on "email_log" ("vehicle_id");`);
    this.addSql(
      `create table "mail_bounce" ("address" varchar(254) not null, "reason" text not null, "bounced_at" timestamptz not null, primary key ("address"));`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "mail_bounce";`);
    this.addSql(`alter table "email_log" drop column "vehicle_id", drop column "resend_job_id";`);
    this.addSql(
      `update "email_log" set "status" = 'failed' where "status" in ('deferred', 'refused', 'held');`,
    );
    this.addSql(`alter table "email_log" drop constraint if exists "email_log_status_check";`);
    this.addSql(
      `alter table "email_log" add constraint "email_log_status_check" check ("status" in ('pending', 'sent', 'failed'));`,
    );
  }
}
