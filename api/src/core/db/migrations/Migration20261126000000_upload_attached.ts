import { Migration } from '@mikro-orm/migrations';

/** An upload is attached once: its record keeps when, after the media row forgot the key. */
export class Migration20261126000000_upload_attached extends Migration {
  override name = 'Migration20261126000000_upload_attached';

  override up(): void | Promise<void> {
    this.addSql(`alter table "upload" add "attached_at" timestamptz null;`);
    // Uploads that a media row still names were attached.
    this.addSql(
      `update "upload" set "attached_at" = "created_at" where "key" in (select "upload_key" from "media" where "upload_key" is not null);`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "upload" drop column "attached_at";`);
  }
}
