import { Migration } from '@mikro-orm/migrations';

/**
 * The participation fee's money: a payment per invitation with its reference (kept when the
 * invitation goes: bookkeeping keeps bookings ten years), the statements read in and their credits,
 * the bookings (transfer, cash at the gate, refund) each traced to its source, and the SEPA files
 * of refunds.
 */
export class Migration20261225000000_payments extends Migration {
  override name = 'Migration20261225000000_payments';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "payment" ("id" uuid not null, "edition_id" uuid not null, "invitation_id" uuid null, "reference" varchar(20) not null, "amount_cents" int not null, "paid_cents" int not null default 0, "refunded_cents" int not null default 0, "kept_cents" int null, "due_at" timestamptz null, "reminded_at" timestamptz null, "waived_at" timestamptz null, "waived_by_id" uuid null, "waive_reason" text null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `alter table "payment" add constraint "payment_invitation_id_unique" unique ("invitation_id");`,
    );
    this.addSql(`alter table "payment" add constraint "payment_reference_unique" unique ("reference");`);
    this.addSql(`create index "payment_edition_id_index" on "payment" ("edition_id");`);
    this.addSql(
      `create table "bank_import" ("id" uuid not null, "edition_id" uuid not null, "file_sha256" varchar(64) not null, "file_name" varchar(200) null, "format" varchar(40) not null, "imported_by_id" uuid null, "summary" jsonb not null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "bank_import_file_sha256_index" on "bank_import" ("file_sha256");`);
    this.addSql(
      `create table "bank_entry" ("id" uuid not null, "edition_id" uuid not null, "bank_import_id" uuid not null, "identity" varchar(64) not null, "bank_key" varchar(64) null, "amount_cents" int not null, "booking_date" date null, "payer_name" text null, "payer_iban" varchar(34) null, "remittance" text null, "origin" jsonb not null, "outcome" text check ("outcome" in ('paid', 'partial', 'overpaid', 'already_paid', 'unassigned', 'assigned')) not null, "payment_id" uuid null, "pruned_at" timestamptz null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "bank_entry_bank_key_index" on "bank_entry" ("bank_key");`);
    this.addSql(`create index "bank_entry_payment_id_index" on "bank_entry" ("payment_id");`);
    this.addSql(
      `alter table "bank_entry" add constraint "bank_entry_edition_id_identity_unique" unique ("edition_id", "identity");`,
    );
    this.addSql(
      `create table "refund_export" ("id" uuid not null, "edition_id" uuid not null, "message_id" varchar(35) not null, "xml" text null, "total_cents" int not null, "count" int not null, "created_by_id" uuid null, "confirmed_at" timestamptz null, "confirmed_by_id" uuid null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `alter table "refund_export" add constraint "refund_export_message_id_unique" unique ("message_id");`,
    );
    this.addSql(
      `create table "payment_refund" ("id" uuid not null, "edition_id" uuid not null, "payment_id" uuid not null, "refund_export_id" uuid not null, "amount_cents" int not null, "creditor_name" text null, "creditor_iban" varchar(34) null, "creditor_bic" varchar(11) null, "end_to_end_id" varchar(35) not null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "payment_refund_payment_id_index" on "payment_refund" ("payment_id");`);
    this.addSql(
      `create table "payment_booking" ("id" uuid not null, "edition_id" uuid not null, "payment_id" uuid not null, "kind" text check ("kind" in ('transfer', 'cash', 'refund')) not null, "amount_cents" int not null, "bank_entry_id" uuid null, "refund_id" uuid null, "booked_by_id" uuid null, "note" text null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "payment_booking_payment_id_index" on "payment_booking" ("payment_id");`);
    this.addSql(
      `alter table "payment_booking" add constraint "payment_booking_bank_entry_id_unique" unique ("bank_entry_id");`,
    );
    this.addSql(
      `alter table "payment_booking" add constraint "payment_booking_refund_id_unique" unique ("refund_id");`,
    );

    const fk = (table: string, column: string, target: string, rule: string) =>
      this.addSql(
        `alter table "${table}" add constraint "${table}_${column}_foreign" foreign key ("${column}") references "${target}" ("id") on update cascade on delete ${rule};`,
      );
    fk('payment', 'edition_id', 'edition', 'cascade');
    fk('payment', 'invitation_id', 'invitation', 'set null');
    fk('payment', 'waived_by_id', 'users', 'set null');
    fk('bank_import', 'edition_id', 'edition', 'cascade');
    fk('bank_import', 'imported_by_id', 'users', 'set null');
    fk('bank_entry', 'edition_id', 'edition', 'cascade');
    fk('bank_entry', 'bank_import_id', 'bank_import', 'cascade');
    fk('bank_entry', 'payment_id', 'payment', 'set null');
    fk('refund_export', 'edition_id', 'edition', 'cascade');
    fk('refund_export', 'created_by_id', 'users', 'set null');
    fk('refund_export', 'confirmed_by_id', 'users', 'set null');
    fk('payment_refund', 'edition_id', 'edition', 'cascade');
    fk('payment_refund', 'payment_id', 'payment', 'cascade');
    fk('payment_refund', 'refund_export_id', 'refund_export', 'cascade');
    fk('payment_booking', 'edition_id', 'edition', 'cascade');
    fk('payment_booking', 'payment_id', 'payment', 'cascade');
    fk('payment_booking', 'bank_entry_id', 'bank_entry', 'restrict');
    fk('payment_booking', 'refund_id', 'payment_refund', 'restrict');
    fk('payment_booking', 'booked_by_id', 'users', 'set null');
  }

  override down(): void | Promise<void> {
    for (const table of [
      'payment_booking',
      'payment_refund',
      'refund_export',
      'bank_entry',
      'bank_import',
      'payment',
    ])
      this.addSql(`drop table if exists "${table}" cascade;`);
  }
}
