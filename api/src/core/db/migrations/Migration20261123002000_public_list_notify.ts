import { Migration } from '@mikro-orm/migrations';

/** Every change of the public list read model is announced to listening APIs when it commits. */
export class Migration20261123002000_public_list_notify extends Migration {
  override name = 'Migration20261123002000_public_list_notify';

  override up(): void | Promise<void> {
    // Statement level, so a transaction sends one notification however many rows it writes
    // (PostgreSQL folds equal notifications of a transaction); cascaded deletes fire it too.
    this.addSql(`create function "public_vehicle_notify"() returns trigger language plpgsql as $$
      begin
        perform pg_notify('public_vehicle', '');
        return null;
      end $$;`);
    this.addSql(
      `create trigger "public_vehicle_changed" after insert or update or delete on "public_vehicle" for each statement execute function "public_vehicle_notify"();`,
    );
    this.addSql(
      `create trigger "public_vehicle_truncated" after truncate on "public_vehicle" for each statement execute function "public_vehicle_notify"();`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger if exists "public_vehicle_truncated" on "public_vehicle";`);
    this.addSql(`drop trigger if exists "public_vehicle_changed" on "public_vehicle";`);
    this.addSql(`drop function if exists "public_vehicle_notify"();`);
  }
}
