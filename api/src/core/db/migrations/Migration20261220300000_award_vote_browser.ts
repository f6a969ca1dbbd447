import { Migration } from '@mikro-orm/migrations';

/**
 * A pending vote remembers the browser it was cast in (a hash of that browser's random cookie): when
 * the address is confirmed, only that browser's votes count unless the confirming person picks the
 * others, so votes typed in by someone else who knew the address never count in its name.
 */
export class Migration20261220300000_award_vote_browser extends Migration {
  override name = 'Migration20261220300000_award_vote_browser';

  override up(): void | Promise<void> {
    this.addSql(`alter table "award_vote" add column "browser" varchar(64) null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "award_vote" drop column if exists "browser";`);
  }
}
