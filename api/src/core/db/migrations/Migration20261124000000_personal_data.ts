import { Migration } from '@mikro-orm/migrations';
import { SUBMISSION_CONSENT_KINDS, CONSENTS } from '@schlosstreffen/shared';

/**
 * Personal data: clean renditions instead of served uploads, signed uploads recorded, consents,
 * self-service exports, retention runs, email change confirmation, and a status log that names
 * people by id only (names are resolved when it is read).
 */
export class Migration20261124000000_personal_data extends Migration {
  override name = 'Migration20261124000000_personal_data';

  override up(): void | Promise<void> {
    // Every signed upload, until it is cleaned or, never attached, removed after a day.
    this.addSql(
      `create table "upload" ("key" varchar(300) not null, "user_id" uuid not null, "content_type" varchar(60) not null, "size" int not null, "created_at" timestamptz not null, primary key ("key"));`,
    );
    this.addSql(`create index "upload_user_id_index" on "upload" ("user_id");`);
    this.addSql(`create index "upload_created_at_index" on "upload" ("created_at");`);
    this.addSql(
      `alter table "upload" add constraint "upload_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;`,
    );

    // A media row points at its clean full-size rendition; the upload waits in upload_key until cleaned.
    this.addSql(`alter table "media" add "upload_key" varchar(300) null;`);
    this.addSql(`alter table "media" add constraint "media_upload_key_unique" unique ("upload_key");`);
    this.addSql(
      `update "media" set "upload_key" = substr("url", 10),
         "url" = '/objects/media/' || "id" || '/full.' || (case lower(substring("url" from '\\.([A-Za-z0-9]+)$'))
           when 'png' then 'png' when 'webp' then 'webp' when 'avif' then 'avif' when 'gif' then 'png' else 'jpg' end),
         "thumbnail_url" = null
       where "url" like '/objects/uploads/%';`,
    );
    // Existing images are cleaned by the worker (npm run cli -- media:clean shows the progress).
    this.addSql(
      `insert into "outbox" ("id", "job", "payload", "created_at", "published_at")
       select gen_random_uuid(), 'media.thumbnail', json_build_object('mediaId', "id"), now(), null
         from "media" where "upload_key" is not null and "approval_status" <> 'rejected';`,
    );

    this.addSql(
      `create table "consent" ("id" uuid not null, "user_id" uuid not null, "vehicle_id" uuid null, "kind" text not null, "version" varchar(20) not null, "wording" text not null, "source" text not null, "granted_at" timestamptz not null, "withdrawn_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(`create index "consent_user_id_index" on "consent" ("user_id");`);
    this.addSql(`create index "consent_vehicle_id_index" on "consent" ("vehicle_id");`);
    this.addSql(
      `alter table "consent" add constraint "consent_kind_check" check ("kind" in ('media', 'quartett', 'contact'));`,
    );
    this.addSql(
      `alter table "consent" add constraint "consent_source_check" check ("source" in ('application', 'migration'));`,
    );
    this.addSql(
      `alter table "consent" add constraint "consent_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "consent" add constraint "consent_vehicle_id_foreign" foreign key ("vehicle_id") references "vehicle" ("id") on delete cascade;`,
    );
    // Applications sent before consents were recorded went through the same required checkboxes.
    const quote = (text: string) => `'${text.replaceAll("'", "''")}'`;
    const wordings = SUBMISSION_CONSENT_KINDS.map(
      (kind) => `(${quote(kind)}, ${quote(CONSENTS[kind].version)}, ${quote(CONSENTS[kind].text)})`,
    ).join(', ');
    this.addSql(
      `insert into "consent" ("id", "user_id", "vehicle_id", "kind", "version", "wording", "source", "granted_at")
       select gen_random_uuid(), v."user_id", v."id", k."kind", k."version", k."wording", 'migration', v."created_at"
         from "vehicle" v cross join (values ${wordings}) as k("kind", "version", "wording")
        where exists (select 1 from "review" r where r."vehicle_id" = v."id" and r."new_status" = 'submitted');`,
    );

    this.addSql(
      `create table "data_export" ("id" uuid not null, "user_id" uuid not null, "status" text not null default 'queued', "progress" int not null default 0, "object_key" varchar(300) null, "error" text null, "created_at" timestamptz not null, "finished_at" timestamptz null, "expires_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(`create index "data_export_user_id_index" on "data_export" ("user_id");`);
    this.addSql(
      `alter table "data_export" add constraint "data_export_status_check" check ("status" in ('queued', 'running', 'ready', 'failed'));`,
    );
    this.addSql(
      `alter table "data_export" add constraint "data_export_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;`,
    );

    this.addSql(
      `create table "retention_run" ("id" uuid not null, "started_at" timestamptz not null, "as_of" timestamptz not null, "removed" jsonb not null, primary key ("id"));`,
    );
    this.addSql(`create index "retention_run_started_at_index" on "retention_run" ("started_at");`);

    this.addSql(
      `alter table "users" add "pending_email" varchar(254) null, add "email_change_token" varchar(64) null, add "email_change_expiry" timestamptz null;`,
    );
    this.addSql(`alter table "quartett_set" add "contains_deleted_account" boolean not null default false;`);

    // The status log names people by id only; the names it kept are removed (system rows keep theirs).
    // Its rows stay append-only, except for one controlled redaction: clearing the internal comment
    // of a deleted person's vehicle, when the deleting transaction says so.
    this.addSql(`alter table "review" add "kind" text not null default 'status';`);
    this.addSql(
      `alter table "review" add constraint "review_kind_check" check ("kind" in ('status', 'consent_withdrawn'));`,
    );
    this.addSql(`alter table "review" alter column "actor_name" drop not null;`);
    this.addSql(`alter table "review" disable trigger "review_no_update_delete";`);
    this.addSql(`update "review" set "actor_name" = null where "actor_role" <> 'system';`);
    this.addSql(`alter table "review" enable trigger "review_no_update_delete";`);
    this.addSql(`create or replace function "review_append_only"() returns trigger language plpgsql as $$
      begin
        if tg_op = 'UPDATE' and current_setting('schlosstreffen.redact_status_log', true) = 'on'
           and new."comment_internal" is null
           and (new."id", new."vehicle_id", new."reviewer_id", new."actor_role", new."actor_name", new."score",
                new."old_status", new."new_status", new."kind", new."created_at")
               is not distinct from
               (old."id", old."vehicle_id", old."reviewer_id", old."actor_role", old."actor_name", old."score",
                old."old_status", old."new_status", old."kind", old."created_at") then
          return new;
        end if;
        raise exception 'the status log is append-only: % on review refused', tg_op using errcode = 'restrict_violation';
      end $$;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`create or replace function "review_append_only"() returns trigger language plpgsql as $$
      begin
        raise exception 'the status log is append-only: % on review refused', tg_op using errcode = 'restrict_violation';
      end $$;`);
    this.addSql(`alter table "review" drop constraint "review_kind_check";`);
    this.addSql(`alter table "review" drop column "kind";`);
    this.addSql(`alter table "quartett_set" drop column "contains_deleted_account";`);
    this.addSql(
      `alter table "users" drop column "pending_email", drop column "email_change_token", drop column "email_change_expiry";`,
    );
    this.addSql(`drop table if exists "retention_run" cascade;`);
    this.addSql(`drop table if exists "data_export" cascade;`);
    this.addSql(`drop table if exists "consent" cascade;`);
    this.addSql(`alter table "media" drop constraint "media_upload_key_unique";`);
    this.addSql(`alter table "media" drop column "upload_key";`);
    this.addSql(`drop table if exists "upload" cascade;`);
  }
}
