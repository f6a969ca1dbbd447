import { Migration } from '@mikro-orm/migrations';

/**
 * Invitations carry a confirm-by date, a reminder mark and, once their place is given up (lapsed,
 * declined, revoked by a reviewer), when and why. Settings hold whether the waitlist moves up by
 * itself.
 */
export class Migration20261127000000_invitation_deadlines extends Migration {
  override name = 'Migration20261127000000_invitation_deadlines';

  override up(): void | Promise<void> {
    this.addSql(`alter table "invitation" add "issued_at" timestamptz not null default now();`);
    this.addSql(`update "invitation" set "issued_at" = "created_at";`);
    this.addSql(`alter table "invitation" add "confirm_by" timestamptz null;`);
    this.addSql(`alter table "invitation" add "reminded_at" timestamptz null;`);
    this.addSql(`alter table "invitation" add "released_at" timestamptz null;`);
    this.addSql(
      `alter table "invitation" add "release_reason" text null check ("release_reason" in ('lapsed', 'declined', 'revoked'));`,
    );
    // A given-up place is passed on once: to the vehicle that moved up for it.
    this.addSql(`alter table "invitation" add "passed_on_at" timestamptz null;`);
    this.addSql(
      `create index "invitation_confirm_by_index" on "invitation" ("confirm_by") where "released_at" is null;`,
    );
    this.addSql(
      `create index "invitation_pending_release_index" on "invitation" ("released_at") where "released_at" is not null and "passed_on_at" is null;`,
    );
    this.addSql(
      `create table "setting" ("key" varchar(60) not null primary key, "value" jsonb not null, "updated_at" timestamptz not null default now());`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table "setting";`);
    this.addSql(`drop index "invitation_confirm_by_index";`);
    this.addSql(`drop index "invitation_pending_release_index";`);
    this.addSql(
      `alter table "invitation" drop column "issued_at", drop column "confirm_by", drop column "reminded_at", drop column "released_at", drop column "release_reason", drop column "passed_on_at";`,
    );
  }
}
