import { Migration } from '@mikro-orm/migrations';

/**
 * Cars' public pages: the owner's optional consent to show their Instagram name there (given on the
 * dashboard), and the key of each listed car's link preview image.
 */
export class Migration20261218000000_car_pages extends Migration {
  override name = 'Migration20261218000000_car_pages';

  override up(): void | Promise<void> {
    this.addSql(`alter table "public_vehicle" add column "share_image" varchar(200) null;`);
    this.addSql(`alter table "consent" drop constraint if exists "consent_source_check";`);
    this.addSql(
      `alter table "consent" add constraint "consent_source_check" check ("source" in ('application', 'migration', 'dashboard'));`,
    );
    this.addSql(`alter table "consent" drop constraint if exists "consent_kind_check";`);
    this.addSql(
      `alter table "consent" add constraint "consent_kind_check" check ("kind" in ('media', 'quartett', 'contact', 'instagram'));`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "public_vehicle" drop column if exists "share_image";`);
    this.addSql(`delete from "consent" where "kind" = 'instagram' or "source" = 'dashboard';`);
    this.addSql(`alter table "consent" drop constraint if exists "consent_source_check";`);
    this.addSql(
      `alter table "consent" add constraint "consent_source_check" check ("source" in ('application', 'migration'));`,
    );
    this.addSql(`alter table "consent" drop constraint if exists "consent_kind_check";`);
    this.addSql(
      `alter table "consent" add constraint "consent_kind_check" check ("kind" in ('media', 'quartett', 'contact'));`,
    );
  }
}
