import { Migration } from '@mikro-orm/migrations';

/**
 * An admin's corrections of an award's final totals, each with its moment, the car, its votes
 * before and after, and the reason: the record a past edition's award keeps of them.
 */
export class Migration20261222200000_award_corrections extends Migration {
  override name = 'Migration20261222200000_award_corrections';

  override up(): void | Promise<void> {
    this.addSql(`alter table "award" add column "corrections" jsonb null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "award" drop column if exists "corrections";`);
  }
}
