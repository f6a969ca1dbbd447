import { Migration } from '@mikro-orm/migrations';

/**
 * The visitors' award's final totals are on the look back: a change of the award row (opening,
 * closing, moments; never a vote) counts as a change of the public input 'editions'.
 */
export class Migration20261219200000_award_look_back extends Migration {
  override name = 'Migration20261219200000_award_look_back';

  override up(): void | Promise<void> {
    this.addSql(
      `create trigger "public_input_editions_award" after insert or update or delete on "award" for each statement execute function "public_input_changed"('editions');`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger if exists "public_input_editions_award" on "award";`);
  }
}
