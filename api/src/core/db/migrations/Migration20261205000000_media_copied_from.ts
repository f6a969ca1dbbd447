import { Migration } from '@mikro-orm/migrations';

/**
 * A photo carried over to an application of the next edition names the photo it was copied from,
 * so the reviewer sees which photos are new, carried over or gone since the car's last application.
 */
export class Migration20261205000000_media_copied_from extends Migration {
  override name = 'Migration20261205000000_media_copied_from';

  override up(): void | Promise<void> {
    this.addSql(`alter table "media" add column "copied_from" uuid null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "media" drop column "copied_from";`);
  }
}
