import { Migration } from '@mikro-orm/migrations';

/**
 * Confirmed addresses: a new account confirms its email by a mailed link (SHA-256 of the token and
 * its expiry stored), and the notice of an email change to the old address carries a link that
 * cancels the change. Accounts that exist already stay unconfirmed and are asked to confirm at
 * their next sign-in.
 */
export class Migration20261130000000_confirmed_addresses extends Migration {
  override name = 'Migration20261130000000_confirmed_addresses';

  override up(): void | Promise<void> {
    this.addSql(`alter table "users" add "email_confirm_token" varchar(64) null;`);
    this.addSql(`alter table "users" add "email_confirm_expiry" timestamptz null;`);
    this.addSql(`alter table "users" add "email_change_cancel_token" varchar(64) null;`);
    this.addSql(
      `create unique index "users_email_confirm_token_unique" on "users" ("email_confirm_token") where "email_confirm_token" is not null;`,
    );
    this.addSql(
      `create unique index "users_email_change_cancel_token_unique" on "users" ("email_change_cancel_token") where "email_change_cancel_token" is not null;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index if exists "users_email_change_cancel_token_unique";`);
    this.addSql(`drop index if exists "users_email_confirm_token_unique";`);
    this.addSql(`alter table "users" drop column "email_change_cancel_token";`);
    this.addSql(`alter table "users" drop column "email_confirm_expiry";`);
    this.addSql(`alter table "users" drop column "email_confirm_token";`);
  }
}
