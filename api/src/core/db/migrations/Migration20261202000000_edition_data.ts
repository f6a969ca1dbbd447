import { Migration } from '@mikro-orm/migrations';

/** Tables whose rows belong to one meeting directly; the rest reach their edition through the vehicle. */
const DIRECT = ['vehicle', 'quartett_set', 'visitor_registration', 'visitor_update'] as const;

/**
 * Everything the platform holds belongs to an edition: applications (vehicles), quartett sets,
 * visitor sign-ups and updates name theirs; invitations and the public list's rows carry their
 * vehicle's (start numbers are unique per edition, the landing page lists the current edition's).
 * Invitations, check-ins and scans, consents, the status log and the quartett cards reach theirs
 * through the vehicle. Today's rows become the first edition's (the earliest year); nothing is
 * copied or removed.
 *
 * Start numbers restart per edition: each edition counts its own (`next_start_number`, taken under
 * the row's lock, so a number is never given twice in an edition). The global sequence goes.
 */
export class Migration20261202000000_edition_data extends Migration {
  override name = 'Migration20261202000000_edition_data';

  override async up(): Promise<void> {
    const first = `(select "id" from "edition" order by "year" asc limit 1)`;
    for (const table of DIRECT) {
      this.addSql(`alter table "${table}" add column "edition_id" uuid null;`);
      this.addSql(`update "${table}" set "edition_id" = ${first};`);
      this.addSql(`alter table "${table}" alter column "edition_id" set not null;`);
      this.addSql(
        `alter table "${table}" add constraint "${table}_edition_id_foreign" foreign key ("edition_id") references "edition" ("id") on update cascade;`,
      );
    }
    this.addSql(`create index "quartett_set_edition_id_index" on "quartett_set" ("edition_id");`);
    this.addSql(`create index "visitor_update_edition_id_index" on "visitor_update" ("edition_id");`);

    // One sign-up per address and edition.
    this.addSql(`alter table "visitor_registration" drop constraint "visitor_registration_email_unique";`);
    this.addSql(
      `alter table "visitor_registration" add constraint "visitor_registration_edition_id_email_unique" unique ("edition_id", "email");`,
    );

    // The staff lists of one edition: the keyset indexes lead with it.
    this.addSql(`drop index "vehicle_created_at_id_index";`);
    this.addSql(`drop index "vehicle_status_created_at_id_index";`);
    this.addSql(`drop index "vehicle_brand_model_id_index";`);
    this.addSql(
      `create index "vehicle_edition_id_created_at_id_index" on "vehicle" ("edition_id", "created_at", "id");`,
    );
    this.addSql(
      `create index "vehicle_edition_id_status_created_at_id_index" on "vehicle" ("edition_id", "status", "created_at", "id");`,
    );
    this.addSql(
      `create index "vehicle_edition_id_brand_model_id_index" on "vehicle" ("edition_id", "brand", "model", "id");`,
    );

    // Invitations carry their vehicle's edition; start numbers count per edition.
    this.addSql(`alter table "invitation" add column "edition_id" uuid null;`);
    this.addSql(
      `update "invitation" i set "edition_id" = v."edition_id" from "vehicle" v where v."id" = i."vehicle_id";`,
    );
    this.addSql(`alter table "invitation" alter column "edition_id" set not null;`);
    this.addSql(
      `alter table "invitation" add constraint "invitation_edition_id_foreign" foreign key ("edition_id") references "edition" ("id") on update cascade;`,
    );
    this.addSql(`alter table "invitation" drop constraint "invitation_start_number_unique";`);
    this.addSql(
      `alter table "invitation" add constraint "invitation_edition_id_start_number_unique" unique ("edition_id", "start_number");`,
    );
    this.addSql(`alter table "invitation" alter column "start_number" drop default;`);
    this.addSql(`alter table "edition" add column "next_start_number" int not null default 1;`);
    // The next number of the first edition continues its sequence: no number given so far comes again.
    this.addSql(
      `update "edition" set "next_start_number" = greatest(
         (select coalesce(max("start_number"), 0) + 1 from "invitation" where "edition_id" = "edition"."id"),
         case when "id" = ${first} then (select last_value + (case when is_called then 1 else 0 end) from "invitation_start_number_seq") else 1 end);`,
    );
    this.addSql(`drop sequence "invitation_start_number_seq";`);

    // The public list's rows carry their vehicle's edition (the landing page lists the current one's).
    this.addSql(`alter table "public_vehicle" add column "edition_id" uuid null;`);
    this.addSql(
      `update "public_vehicle" p set "edition_id" = v."edition_id" from "vehicle" v where v."id" = p."vehicle_id";`,
    );
    this.addSql(`alter table "public_vehicle" alter column "edition_id" set not null;`);
    this.addSql(
      `create index "public_vehicle_edition_id_listed_at_index" on "public_vehicle" ("edition_id", "listed_at");`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "public_vehicle_edition_id_listed_at_index";`);
    this.addSql(`alter table "public_vehicle" drop column "edition_id";`);
    this.addSql(
      `create sequence "invitation_start_number_seq" as int start 1 minvalue 1 owned by "invitation"."start_number";`,
    );
    this.addSql(
      `select setval('invitation_start_number_seq', coalesce((select max("start_number") from "invitation"), 0) + 1, false);`,
    );
    this.addSql(`alter table "edition" drop column "next_start_number";`);
    this.addSql(
      `alter table "invitation" alter column "start_number" set default nextval('invitation_start_number_seq');`,
    );
    this.addSql(`alter table "invitation" drop constraint "invitation_edition_id_start_number_unique";`);
    this.addSql(
      `alter table "invitation" add constraint "invitation_start_number_unique" unique ("start_number");`,
    );
    this.addSql(`alter table "invitation" drop column "edition_id";`);
    this.addSql(`drop index "vehicle_edition_id_brand_model_id_index";`);
    this.addSql(`drop index "vehicle_edition_id_status_created_at_id_index";`);
    this.addSql(`drop index "vehicle_edition_id_created_at_id_index";`);
    this.addSql(`create index "vehicle_created_at_id_index" on "vehicle" ("created_at", "id");`);
    this.addSql(
      `create index "vehicle_status_created_at_id_index" on "vehicle" ("status", "created_at", "id");`,
    );
    this.addSql(`create index "vehicle_brand_model_id_index" on "vehicle" ("brand", "model", "id");`);
    this.addSql(
      `alter table "visitor_registration" drop constraint "visitor_registration_edition_id_email_unique";`,
    );
    this.addSql(
      `alter table "visitor_registration" add constraint "visitor_registration_email_unique" unique ("email");`,
    );
    for (const table of DIRECT) this.addSql(`alter table "${table}" drop column "edition_id";`);
  }
}
