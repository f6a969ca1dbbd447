import { Migration } from '@mikro-orm/migrations';

/**
 * The audit log of staff actions. Append-only like the status log: the database refuses UPDATE,
 * DELETE and TRUNCATE, with two exceptions a transaction must ask for by a transaction-local
 * setting: account deletion clears the addresses of the person's rows (nothing else changes), and
 * retention deletes rows older than the moment it names.
 */
export class Migration20261208000000_audit_log extends Migration {
  override name = 'Migration20261208000000_audit_log';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "audit_log" ("id" uuid not null, "seq" bigint generated always as identity, "actor_id" uuid null, "actor_role" text not null, "actor_name" varchar(220) null, "action" varchar(60) not null, "target" varchar(200) null, "details" jsonb not null default '{}', "ip" varchar(64) null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `alter table "audit_log" add constraint "audit_log_actor_role_check" check ("actor_role" in ('user', 'admin', 'reviewer', 'system'));`,
    );
    this.addSql(
      `alter table "audit_log" add constraint "audit_log_actor_check" check (("actor_id" is null) = ("actor_role" = 'system'));`,
    );
    this.addSql(`create unique index "audit_log_seq_index" on "audit_log" ("seq");`);
    this.addSql(`create index "audit_log_actor_seq_index" on "audit_log" ("actor_id", "seq");`);
    this.addSql(`create index "audit_log_action_seq_index" on "audit_log" ("action", "seq");`);
    this.addSql(`create index "audit_log_created_at_index" on "audit_log" ("created_at");`);

    this.addSql(`create function "audit_log_append_only"() returns trigger language plpgsql as $$
      begin
        -- Account deletion: the address of a deleted person's rows goes, everything else stays.
        if tg_op = 'UPDATE' and current_setting('schlosstreffen.redact_audit_log', true) = 'on'
           and new."ip" is null
           and (new."id", new."seq", new."actor_id", new."actor_role", new."actor_name", new."action",
                new."target", new."details", new."created_at")
               is not distinct from
               (old."id", old."seq", old."actor_id", old."actor_role", old."actor_name", old."action",
                old."target", old."details", old."created_at") then
          return new;
        end if;
        -- Retention: rows older than the moment the run names.
        if tg_op = 'DELETE' and coalesce(current_setting('schlosstreffen.audit_log_retention_before', true), '') <> ''
           and old."created_at" < current_setting('schlosstreffen.audit_log_retention_before', true)::timestamptz then
          return old;
        end if;
        raise exception 'the audit log is append-only: % on audit_log refused', tg_op using errcode = 'restrict_violation';
      end $$;`);
    this.addSql(
      `create trigger "audit_log_no_update_delete" before update or delete on "audit_log" for each row execute function "audit_log_append_only"();`,
    );
    this.addSql(
      `create trigger "audit_log_no_truncate" before truncate on "audit_log" for each statement execute function "audit_log_append_only"();`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "audit_log" cascade;`);
    this.addSql(`drop function if exists "audit_log_append_only"();`);
  }
}
