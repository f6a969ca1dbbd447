import { Migration } from '@mikro-orm/migrations';

/**
 * The jury of a meeting: its classes with their scorecards and judges, the judges of an edition and
 * invitations to judge, each judge's values (the last entered per criterion) and bias declarations,
 * and per edition the publication of the results. A change of the edition's jury row (publication,
 * correction) is the public input 'jury': the results page, the look back and the car pages follow it.
 */
export class Migration20261223000000_jury extends Migration {
  override name = 'Migration20261223000000_jury';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "jury_judge" ("id" uuid not null, "edition_id" uuid not null, "user_id" uuid not null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "jury_judge_user_id_index" on "jury_judge" ("user_id");`);
    this.addSql(
      `alter table "jury_judge" add constraint "jury_judge_edition_id_user_id_unique" unique ("edition_id", "user_id");`,
    );
    this.addSql(
      `create table "jury_invite" ("id" uuid not null, "edition_id" uuid not null, "email" varchar(254) not null, "token_hash" varchar(64) not null, "class_ids" jsonb not null, "invited_by_id" uuid null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `alter table "jury_invite" add constraint "jury_invite_token_hash_unique" unique ("token_hash");`,
    );
    this.addSql(
      `create table "jury_class" ("id" uuid not null, "edition_id" uuid not null, "name" varchar(60) not null, "position" int not null, "scope" jsonb not null, "criteria" jsonb not null, "places" int not null, "head_judge_id" uuid null, "closed_at" timestamptz null, "closed_by_id" uuid null, "force_reason" text null, "record" jsonb null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `alter table "jury_class" add constraint "jury_class_edition_id_name_unique" unique ("edition_id", "name");`,
    );
    this.addSql(
      `create table "jury_class_judge" ("jury_class_id" uuid not null, "user_id" uuid not null, primary key ("jury_class_id", "user_id"));`,
    );
    this.addSql(`create index "jury_class_judge_user_id_index" on "jury_class_judge" ("user_id");`);
    this.addSql(
      `create table "jury" ("edition_id" uuid not null, "published_at" timestamptz null, "published_by_id" uuid null, "corrections" jsonb null, "certificates_key" varchar(200) null, "version" int not null default 0, "updated_at" timestamptz not null, primary key ("edition_id"));`,
    );
    this.addSql(
      `create table "jury_score" ("jury_class_id" uuid not null, "judge_id" uuid not null, "vehicle_id" uuid not null, "criterion" varchar(40) not null, "value" int not null, "entry_id" uuid not null, "entered_at" timestamptz not null, "received_at" timestamptz not null, "device_id" uuid not null, primary key ("jury_class_id", "judge_id", "vehicle_id", "criterion")) with (fillfactor = 70);`,
    );
    this.addSql(
      `create table "jury_recusal" ("id" uuid not null, "edition_id" uuid not null, "judge_id" uuid not null, "vehicle_id" uuid not null, "entered_at" timestamptz not null, "received_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "jury_recusal_judge_id_index" on "jury_recusal" ("judge_id");`);
    this.addSql(`create index "jury_recusal_vehicle_id_index" on "jury_recusal" ("vehicle_id");`);
    this.addSql(
      `alter table "jury_recusal" add constraint "jury_recusal_edition_id_judge_id_vehicle_id_unique" unique ("edition_id", "judge_id", "vehicle_id");`,
    );
    this.addSql(
      `alter table "jury_judge" add constraint "jury_judge_edition_id_foreign" foreign key ("edition_id") references "edition" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "jury_judge" add constraint "jury_judge_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "jury_invite" add constraint "jury_invite_edition_id_foreign" foreign key ("edition_id") references "edition" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "jury_invite" add constraint "jury_invite_invited_by_id_foreign" foreign key ("invited_by_id") references "users" ("id") on delete set null;`,
    );
    this.addSql(
      `alter table "jury_class" add constraint "jury_class_edition_id_foreign" foreign key ("edition_id") references "edition" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "jury_class" add constraint "jury_class_head_judge_id_foreign" foreign key ("head_judge_id") references "users" ("id") on delete set null;`,
    );
    this.addSql(
      `alter table "jury_class" add constraint "jury_class_closed_by_id_foreign" foreign key ("closed_by_id") references "users" ("id") on delete set null;`,
    );
    this.addSql(
      `alter table "jury_class_judge" add constraint "jury_class_judge_jury_class_id_foreign" foreign key ("jury_class_id") references "jury_class" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "jury_class_judge" add constraint "jury_class_judge_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "jury" add constraint "jury_edition_id_foreign" foreign key ("edition_id") references "edition" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "jury" add constraint "jury_published_by_id_foreign" foreign key ("published_by_id") references "users" ("id") on delete set null;`,
    );
    this.addSql(
      `alter table "jury_score" add constraint "jury_score_jury_class_id_foreign" foreign key ("jury_class_id") references "jury_class" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "jury_score" add constraint "jury_score_judge_id_foreign" foreign key ("judge_id") references "users" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "jury_score" add constraint "jury_score_vehicle_id_foreign" foreign key ("vehicle_id") references "vehicle" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "jury_recusal" add constraint "jury_recusal_edition_id_foreign" foreign key ("edition_id") references "edition" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "jury_recusal" add constraint "jury_recusal_judge_id_foreign" foreign key ("judge_id") references "users" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "jury_recusal" add constraint "jury_recusal_vehicle_id_foreign" foreign key ("vehicle_id") references "vehicle" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "jury_class" add constraint "jury_class_places_check" check (places between 1 and 3);`,
    );
    this.addSql(`alter table "jury_score" add constraint "jury_score_value_check" check (value >= 0);`);
    this.addSql(`create sequence "public_input_jury";`);
    this.addSql(
      `create trigger "public_input_jury" after insert or update or delete on "jury" for each statement execute function "public_input_changed"('jury');`,
    );
    this.addSql(
      `create trigger "public_input_jury_truncated" after truncate on "jury" for each statement execute function "public_input_changed"('jury');`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger if exists "public_input_jury_truncated" on "jury";`);
    this.addSql(`drop trigger if exists "public_input_jury" on "jury";`);
    this.addSql(`drop sequence if exists "public_input_jury";`);
    for (const table of [
      'jury_score',
      'jury_recusal',
      'jury_class_judge',
      'jury_class',
      'jury_judge',
      'jury_invite',
      'jury',
    ]) {
      this.addSql(`drop table if exists "${table}" cascade;`);
    }
  }
}
