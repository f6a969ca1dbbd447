import { Migration } from '@mikro-orm/migrations';

/**
 * The staff lists page, filter and search in PostgreSQL: keyset indexes for each order (newest or
 * oldest first, by status, by brand) and for the media library; trigram indexes serve the
 * case-insensitive substring search on brand, model and the owner's names where pg_trgm is
 * available (without it the search still works, by scanning).
 */
export class Migration20261129000000_admin_list_indexes extends Migration {
  override name = 'Migration20261129000000_admin_list_indexes';

  override up(): void | Promise<void> {
    this.addSql(`create index "vehicle_created_at_id_index" on "vehicle" ("created_at", "id");`);
    this.addSql(
      `create index "vehicle_status_created_at_id_index" on "vehicle" ("status", "created_at", "id");`,
    );
    this.addSql(`create index "vehicle_brand_model_id_index" on "vehicle" ("brand", "model", "id");`);
    this.addSql(`create index "media_created_at_id_index" on "media" ("created_at", "id");`);
    this.addSql(`do $$
      begin
        if exists (select 1 from pg_available_extensions where name = 'pg_trgm') then
          create extension if not exists pg_trgm;
          create index if not exists "vehicle_brand_trgm_index" on "vehicle" using gin ("brand" gin_trgm_ops);
          create index if not exists "vehicle_model_trgm_index" on "vehicle" using gin ("model" gin_trgm_ops);
          create index if not exists "users_first_name_trgm_index" on "users" using gin ("first_name" gin_trgm_ops);
          create index if not exists "users_last_name_trgm_index" on "users" using gin ("last_name" gin_trgm_ops);
        end if;
      end $$;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index if exists "users_last_name_trgm_index";`);
    this.addSql(`drop index if exists "users_first_name_trgm_index";`);
    this.addSql(`drop index if exists "vehicle_model_trgm_index";`);
    this.addSql(`drop index if exists "vehicle_brand_trgm_index";`);
    this.addSql(`drop index "media_created_at_id_index";`);
    this.addSql(`drop index "vehicle_brand_model_id_index";`);
    this.addSql(`drop index "vehicle_status_created_at_id_index";`);
    this.addSql(`drop index "vehicle_created_at_id_index";`);
  }
}
