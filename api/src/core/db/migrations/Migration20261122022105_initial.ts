import { Migration } from '@mikro-orm/migrations';

export class Migration20261122022105_initial extends Migration {
  override name = 'Migration20261122022105_initial';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "email_log" ("id" uuid not null, "job_id" varchar(100) not null, "recipient" varchar(254) not null, "template" varchar(60) not null, "subject" varchar(300) null, "status" text not null default 'pending', "attempts" int not null default 0, "last_error" text null, "message_id" varchar(255) null, "sent_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`alter table "email_log" add constraint "email_log_job_id_unique" unique ("job_id");`);
    this.addSql(`create index "email_log_recipient_index" on "email_log" ("recipient");`);

    this.addSql(
      `create table "outbox" ("id" uuid not null, "job" varchar(60) not null, "payload" jsonb not null, "created_at" timestamptz not null, "published_at" timestamptz null, primary key ("id"));`,
    );

    this.addSql(
      `create table "quartett_set" ("id" uuid not null, "title" varchar(200) not null, "version" int not null, "card_count" int not null default 0, "rules_url" varchar(255) null, "design_template" varchar(255) null, "export_file_url" varchar(255) null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `alter table "quartett_set" add constraint "quartett_set_version_unique" unique ("version");`,
    );

    this.addSql(
      `create table "review" ("id" uuid not null, "vehicle_id" uuid not null, "reviewer_id" uuid null, "actor_role" text not null, "actor_name" varchar(220) not null, "comment_internal" text null, "score" int null, "old_status" text null, "new_status" text not null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "review_vehicle_id_index" on "review" ("vehicle_id");`);

    this.addSql(
      `create table "session" ("sid" varchar(255) not null, "sess" jsonb not null, "expire" timestamptz not null, primary key ("sid"));`,
    );
    this.addSql(`create index "session_expire_index" on "session" ("expire");`);

    this.addSql(
      `create table "users" ("id" uuid not null, "email" varchar(254) not null, "password_hash" varchar(255) not null, "first_name" varchar(100) not null, "last_name" varchar(100) not null, "profile_image_url" varchar(255) null, "phone" varchar(40) null, "instagram_handle" varchar(100) null, "role" text not null default 'user', "consent_media" boolean not null default false, "consent_quartett" boolean not null default false, "consent_contact" boolean not null default false, "reset_token" varchar(64) null, "reset_token_expiry" timestamptz null, "email_verified" boolean not null default false, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`alter table "users" add constraint "users_email_unique" unique ("email");`);

    this.addSql(
      `create table "vehicle" ("id" uuid not null, "user_id" uuid not null, "title" varchar(220) not null, "name" varchar(100) null, "brand" varchar(100) not null, "model" varchar(100) not null, "year" int not null, "color" varchar(60) null, "license_plate" varchar(20) null, "vin" varchar(17) null, "tuning_categories" jsonb not null default '[]', "description_short" text null, "description_long" text null, "status" text not null default 'draft', "ps" int not null, "kw" int null, "torque_nm" int null, "weight_kg" int not null, "power_to_weight" numeric(6,2) null, "top_speed_kmh" int not null, "zero_to_hundred_s" numeric(4,1) not null, "quarter_mile_s" numeric(4,1) null, "drive_type" text null, "displacement_ccm" int null, "cylinders" int null, "fuel_type" text null, "special_mods" text null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "vehicle_user_id_index" on "vehicle" ("user_id");`);
    this.addSql(`create index "vehicle_status_index" on "vehicle" ("status");`);

    this.addSql(
      `create table "media" ("id" uuid not null, "vehicle_id" uuid not null, "type" text not null default 'image', "url" varchar(1024) not null, "thumbnail_url" varchar(1024) null, "alt_text" varchar(255) null, "is_hero" boolean not null default false, "priority" int not null default 0, "width" int null, "height" int null, "file_size" int null, "crop_x" numeric(5,2) not null default '50', "crop_y" numeric(5,2) not null default '50', "scale" numeric(5,2) not null default '100', "approval_status" text not null default 'auto', "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "media_vehicle_id_index" on "media" ("vehicle_id");`);

    this.addSql(
      `create table "invitation" ("id" uuid not null, "vehicle_id" uuid not null, "qr_code" varchar(64) not null, "start_number" int not null, "parking_zone" varchar(40) not null, "checked_in" boolean not null default false, "checked_in_at" timestamptz null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `alter table "invitation" add constraint "invitation_vehicle_id_unique" unique ("vehicle_id");`,
    );
    this.addSql(`alter table "invitation" add constraint "invitation_qr_code_unique" unique ("qr_code");`);
    this.addSql(
      `alter table "invitation" add constraint "invitation_start_number_unique" unique ("start_number");`,
    );

    this.addSql(
      `create table "visitor_registration" ("id" uuid not null, "first_name" varchar(100) not null, "last_name" varchar(100) not null, "email" varchar(254) not null, "phone" varchar(40) null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "visitor_registration_email_index" on "visitor_registration" ("email");`);

    this.addSql(
      `alter table "email_log" add constraint "email_log_status_check" check ("status" in ('pending', 'sent', 'failed'));`,
    );

    this.addSql(
      `alter table "review" add constraint "review_actor_role_check" check ("actor_role" in ('user', 'admin', 'reviewer', 'system'));`,
    );
    this.addSql(
      `alter table "review" add constraint "review_old_status_check" check ("old_status" in ('draft', 'submitted', 'in_review', 'waitlist', 'invited', 'confirmed', 'rejected'));`,
    );
    this.addSql(
      `alter table "review" add constraint "review_new_status_check" check ("new_status" in ('draft', 'submitted', 'in_review', 'waitlist', 'invited', 'confirmed', 'rejected'));`,
    );

    this.addSql(
      `alter table "users" add constraint "users_role_check" check ("role" in ('user', 'admin', 'reviewer'));`,
    );

    this.addSql(
      `alter table "vehicle" add constraint "vehicle_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "vehicle" add constraint "vehicle_status_check" check ("status" in ('draft', 'submitted', 'in_review', 'waitlist', 'invited', 'confirmed', 'rejected'));`,
    );
    this.addSql(
      `alter table "vehicle" add constraint "vehicle_drive_type_check" check ("drive_type" in ('FWD', 'RWD', 'AWD'));`,
    );
    this.addSql(
      `alter table "vehicle" add constraint "vehicle_fuel_type_check" check ("fuel_type" in ('Benzin', 'Diesel', 'Electric', 'Hybrid'));`,
    );

    this.addSql(
      `alter table "media" add constraint "media_vehicle_id_foreign" foreign key ("vehicle_id") references "vehicle" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "media" add constraint "media_type_check" check ("type" in ('image', 'video', 'link'));`,
    );
    this.addSql(
      `alter table "media" add constraint "media_approval_status_check" check ("approval_status" in ('auto', 'moderated', 'approved', 'rejected'));`,
    );

    this.addSql(
      `alter table "invitation" add constraint "invitation_vehicle_id_foreign" foreign key ("vehicle_id") references "vehicle" ("id") on delete cascade;`,
    );

    // The status log is append-only: the database refuses to change or remove its rows.
    this.addSql(`create function "review_append_only"() returns trigger language plpgsql as $$
      begin
        raise exception 'the status log is append-only: % on review refused', tg_op using errcode = 'restrict_violation';
      end $$;`);
    this.addSql(
      `create trigger "review_no_update_delete" before update or delete on "review" for each row execute function "review_append_only"();`,
    );
    this.addSql(
      `create trigger "review_no_truncate" before truncate on "review" for each statement execute function "review_append_only"();`,
    );
    this.addSql(`create index "review_vehicle_history_index" on "review" ("vehicle_id", "created_at" desc);`);

    // The relay reads unpublished rows in order; published ones drop out of the index.
    this.addSql(
      `create index "outbox_unpublished_index" on "outbox" ("created_at", "id") where "published_at" is null;`,
    );

    // Ending all sessions of a user (password change and reset).
    this.addSql(`create index "session_user_id_index" on "session" ((sess->>'userId'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "vehicle" drop constraint "vehicle_user_id_foreign";`);
    this.addSql(`alter table "media" drop constraint "media_vehicle_id_foreign";`);
    this.addSql(`alter table "invitation" drop constraint "invitation_vehicle_id_foreign";`);

    this.addSql(`drop table if exists "email_log" cascade;`);
    this.addSql(`drop table if exists "outbox" cascade;`);
    this.addSql(`drop table if exists "quartett_set" cascade;`);
    this.addSql(`drop table if exists "review" cascade;`);
    this.addSql(`drop table if exists "session" cascade;`);
    this.addSql(`drop table if exists "users" cascade;`);
    this.addSql(`drop table if exists "vehicle" cascade;`);
    this.addSql(`drop table if exists "media" cascade;`);
    this.addSql(`drop table if exists "invitation" cascade;`);
    this.addSql(`drop table if exists "visitor_registration" cascade;`);
    this.addSql(`drop function if exists "review_append_only"();`);
  }
}
