import { Migration } from '@mikro-orm/migrations';

/**
 * A car across editions: each application names its car (`car_id`); applying again with last year's
 * car makes a new application with the same car id, so the garage and the reviewer's look at earlier
 * applications find each other. Every application so far is a car of its own.
 */
export class Migration20261203000000_cars extends Migration {
  override name = 'Migration20261203000000_cars';

  override up(): void | Promise<void> {
    this.addSql(`alter table "vehicle" add column "car_id" uuid null;`);
    this.addSql(`update "vehicle" set "car_id" = "id";`);
    this.addSql(`alter table "vehicle" alter column "car_id" set not null;`);
    this.addSql(`alter table "vehicle" alter column "car_id" set default gen_random_uuid();`);
    this.addSql(`create index "vehicle_user_id_car_id_index" on "vehicle" ("user_id", "car_id");`);
    // One application per car and edition.
    this.addSql(
      `alter table "vehicle" add constraint "vehicle_car_id_edition_id_unique" unique ("car_id", "edition_id");`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "vehicle" drop constraint "vehicle_car_id_edition_id_unique";`);
    this.addSql(`drop index "vehicle_user_id_car_id_index";`);
    this.addSql(`alter table "vehicle" drop column "car_id";`);
  }
}
