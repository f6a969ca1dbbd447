import { Migration } from '@mikro-orm/migrations';

/**
 * Check-in at several gates, online or not: every scan a gate sends is kept under the id the device
 * gave it (a resend is the same row); the invitation points at the earliest scan, which wins. Scans
 * name the staff account and the gate, never the owner: they go with the invitation.
 */
export class Migration20261128000000_gate_scans extends Migration {
  override name = 'Migration20261128000000_gate_scans';

  override up(): void | Promise<void> {
    this.addSql(`create table "check_in_scan" (
      "id" uuid not null primary key,
      "invitation_id" uuid not null references "invitation" ("id") on delete cascade,
      "device_id" uuid not null,
      "gate" varchar(40) not null,
      "scanned_at" timestamptz not null,
      "received_at" timestamptz not null default now(),
      "staff_id" uuid null references "users" ("id") on delete set null
    );`);
    this.addSql(
      `create index "check_in_scan_invitation_index" on "check_in_scan" ("invitation_id", "scanned_at", "id");`,
    );
    this.addSql(`create index "check_in_scan_device_index" on "check_in_scan" ("device_id");`);
    this.addSql(`create index "check_in_scan_received_index" on "check_in_scan" ("received_at");`);
    this.addSql(
      `alter table "invitation" add column "checked_in_scan_id" uuid null references "check_in_scan" ("id") on delete set null;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "invitation" drop column "checked_in_scan_id";`);
    this.addSql(`drop table "check_in_scan";`);
  }
}
