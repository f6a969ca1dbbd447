import { Migration } from '@mikro-orm/migrations';

/** The status log takes an admin's correction of a past edition's record (kind 'correction'). */
export class Migration20261214000000_status_correction extends Migration {
  override name = 'Migration20261214000000_status_correction';

  override up(): void | Promise<void> {
    this.addSql(`alter table "review" drop constraint "review_kind_check";`);
    this.addSql(
      `alter table "review" add constraint "review_kind_check" check ("kind" in ('status', 'consent_withdrawn', 'review', 'correction'));`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "review" drop constraint "review_kind_check";`);
    this.addSql(
      `alter table "review" add constraint "review_kind_check" check ("kind" in ('status', 'consent_withdrawn', 'review'));`,
    );
  }
}
