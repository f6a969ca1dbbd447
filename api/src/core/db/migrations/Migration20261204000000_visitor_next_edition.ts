import { Migration } from '@mikro-orm/migrations';

/**
 * A visitor's consent to hear about the next edition: when it was given and in which wording, and
 * when the one mail about the next edition was queued. Until then retention keeps the sign-up past
 * its edition's period; afterwards it ends with it.
 */
export class Migration20261204000000_visitor_next_edition extends Migration {
  override name = 'Migration20261204000000_visitor_next_edition';

  override up(): void | Promise<void> {
    this.addSql(`alter table "visitor_registration"
      add column "next_edition_consent_at" timestamptz null,
      add column "next_edition_consent_version" varchar(20) null,
      add column "next_edition_notified_at" timestamptz null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "visitor_registration"
      drop column "next_edition_consent_at",
      drop column "next_edition_consent_version",
      drop column "next_edition_notified_at";`);
  }
}
