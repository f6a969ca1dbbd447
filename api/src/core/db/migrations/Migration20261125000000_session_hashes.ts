import { Migration } from '@mikro-orm/migrations';

/** Session ids are stored as SHA-256 hashes only: the rows of today are hashed in place. */
export class Migration20261125000000_session_hashes extends Migration {
  override name = 'Migration20261125000000_session_hashes';

  override up(): void | Promise<void> {
    this.addSql(`update "session" set "sid" = encode(sha256(convert_to("sid", 'UTF8')), 'hex');`);
  }

  override down(): void | Promise<void> {
    // Hashes cannot be turned back into ids: every session ends.
    this.addSql(`delete from "session";`);
  }
}
