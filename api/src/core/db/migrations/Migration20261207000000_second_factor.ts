import { Migration } from '@mikro-orm/migrations';

/**
 * The second factor of staff accounts: the TOTP key sealed at rest (AES-GCM under a key derived
 * from SESSION_SECRET), when it was set up, the last time step a code was taken for (a code is
 * never taken twice) and the SHA-256 hashes of the recovery codes not used yet.
 */
export class Migration20261207000000_second_factor extends Migration {
  override name = 'Migration20261207000000_second_factor';

  override up(): void | Promise<void> {
    this.addSql(`alter table "users"
      add column "second_factor_secret" text null,
      add column "second_factor_enabled_at" timestamptz null,
      add column "second_factor_last_step" int null,
      add column "second_factor_recovery_codes" text[] null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "users"
      drop column "second_factor_secret",
      drop column "second_factor_enabled_at",
      drop column "second_factor_last_step",
      drop column "second_factor_recovery_codes";`);
  }
}
