import { Migration } from '@mikro-orm/migrations';

/** An outbox row keeps the id of the request (or of the job) that queued it, for the logs of its job. */
export class Migration20261215200000_outbox_request_id extends Migration {
  override name = 'Migration20261215200000_outbox_request_id';

  override up(): void | Promise<void> {
    this.addSql(`alter table "outbox" add column "request_id" varchar(128) null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "outbox" drop column "request_id";`);
  }
}
