import { Migration } from '@mikro-orm/migrations';

/** Start numbers and set versions from sequences; quartett set status and its cards. */
export class Migration20261122031606_schema3 extends Migration {
  override name = 'Migration20261122031606_schema3';

  override up(): void | Promise<void> {
    // Sequences hand out each number once, also across rolled-back transactions: never reused.
    this.addSql(
      `create sequence "invitation_start_number_seq" as int start 1 minvalue 1 owned by "invitation"."start_number";`,
    );
    this.addSql(
      `select setval('invitation_start_number_seq', coalesce((select max("start_number") from "invitation"), 0) + 1, false);`,
    );
    this.addSql(
      `alter table "invitation" alter column "start_number" set default nextval('invitation_start_number_seq');`,
    );
    this.addSql(
      `create sequence "quartett_set_version_seq" as int start 1 minvalue 1 owned by "quartett_set"."version";`,
    );
    this.addSql(
      `select setval('quartett_set_version_seq', coalesce((select max("version") from "quartett_set"), 0) + 1, false);`,
    );
    this.addSql(
      `alter table "quartett_set" alter column "version" set default nextval('quartett_set_version_seq');`,
    );

    this.addSql(
      `alter table "quartett_set" add "status" text not null default 'queued', add "progress" int not null default 0, add "error" text null, add "created_by_id" uuid null, add "finished_at" timestamptz null, add "released_at" timestamptz null;`,
    );
    this.addSql(
      `alter table "quartett_set" add constraint "quartett_set_created_by_id_foreign" foreign key ("created_by_id") references "users" ("id") on delete set null;`,
    );
    this.addSql(
      `alter table "quartett_set" add constraint "quartett_set_status_check" check ("status" in ('queued', 'rendering', 'ready', 'failed'));`,
    );

    this.addSql(
      `create table "quartett_card" ("id" uuid not null, "set_id" uuid not null, "vehicle_id" uuid not null, "code" varchar(8) not null, "position" int not null, primary key ("id"));`,
    );
    this.addSql(`create index "quartett_card_vehicle_id_index" on "quartett_card" ("vehicle_id");`);
    this.addSql(
      `alter table "quartett_card" add constraint "quartett_card_set_id_vehicle_id_unique" unique ("set_id", "vehicle_id");`,
    );
    this.addSql(
      `alter table "quartett_card" add constraint "quartett_card_set_id_position_unique" unique ("set_id", "position");`,
    );
    this.addSql(
      `alter table "quartett_card" add constraint "quartett_card_set_id_foreign" foreign key ("set_id") references "quartett_set" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "quartett_card" add constraint "quartett_card_vehicle_id_foreign" foreign key ("vehicle_id") references "vehicle" ("id") on delete cascade;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "quartett_card" cascade;`);
    this.addSql(`alter table "quartett_set" drop constraint "quartett_set_status_check";`);
    this.addSql(`alter table "quartett_set" drop constraint "quartett_set_created_by_id_foreign";`);
    this.addSql(
      `alter table "quartett_set" drop column "status", drop column "progress", drop column "error", drop column "created_by_id", drop column "finished_at", drop column "released_at";`,
    );
    this.addSql(`alter table "quartett_set" alter column "version" drop default;`);
    this.addSql(`drop sequence if exists "quartett_set_version_seq";`);
    this.addSql(`alter table "invitation" alter column "start_number" drop default;`);
    this.addSql(`drop sequence if exists "invitation_start_number_seq";`);
  }
}
