import { Migration } from '@mikro-orm/migrations';

/**
 * An edition's participation fee ('Teilnahmegebühr'): amount in cents, account holder, IBAN, BIC,
 * days to pay after an invitation's confirm-by deadline and the refund rule. Null: no fee.
 */
export class Migration20261224000000_edition_fee extends Migration {
  override name = 'Migration20261224000000_edition_fee';

  override up(): void | Promise<void> {
    this.addSql(`alter table "edition" add column "fee" jsonb null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "edition" drop column if exists "fee";`);
  }
}
