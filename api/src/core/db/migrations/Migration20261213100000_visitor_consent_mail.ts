import { Migration } from '@mikro-orm/migrations';

/**
 * When a visitor's address was last mailed the link that adds the consent to hear about the next
 * edition (a repeated sign-up asks for it at most hourly): the consent comes only through that link.
 */
export class Migration20261213100000_visitor_consent_mail extends Migration {
  override name = 'Migration20261213100000_visitor_consent_mail';

  override up(): void | Promise<void> {
    this.addSql(
      `alter table "visitor_registration" add column "next_edition_consent_mailed_at" timestamptz null;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "visitor_registration" drop column "next_edition_consent_mailed_at";`);
  }
}
