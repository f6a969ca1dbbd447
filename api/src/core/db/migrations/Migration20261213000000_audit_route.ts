import { Migration } from '@mikro-orm/migrations';

/**
 * The audit log names the route that matched (`GET /api/admin/vehicles.csv`); rows written before
 * keep none. Redacting a deleted person's rows leaves the route as it is, like every other column
 * but the address.
 */
export class Migration20261213000000_audit_route extends Migration {
  override name = 'Migration20261213000000_audit_route';

  override up(): void | Promise<void> {
    this.addSql(`alter table "audit_log" add column "route" varchar(200) null;`);
    this.addSql(appendOnly(true));
  }

  override down(): void | Promise<void> {
    this.addSql(appendOnly(false));
    this.addSql(`alter table "audit_log" drop column "route";`);
  }
}

/** The append-only trigger's function, comparing the route column too (or not, before it existed). */
function appendOnly(withRoute: boolean): string {
  const route = withRoute ? ', new."route"' : '';
  const oldRoute = withRoute ? ', old."route"' : '';
  return `create or replace function "audit_log_append_only"() returns trigger language plpgsql as $$
      begin
        -- Account deletion: the address of a deleted person's rows goes, everything else stays.
        if tg_op = 'UPDATE' and current_setting('schlosstreffen.redact_audit_log', true) = 'on'
           and new."ip" is null
           and (new."id", new."seq", new."actor_id", new."actor_role", new."actor_name", new."action",
                new."target", new."details", new."created_at"${route})
               is not distinct from
               (old."id", old."seq", old."actor_id", old."actor_role", old."actor_name", old."action",
                old."target", old."details", old."created_at"${oldRoute}) then
          return new;
        end if;
        -- Retention: rows older than the moment the run names.
        if tg_op = 'DELETE' and coalesce(current_setting('schlosstreffen.audit_log_retention_before', true), '') <> ''
           and old."created_at" < current_setting('schlosstreffen.audit_log_retention_before', true)::timestamptz then
          return old;
        end if;
        raise exception 'the audit log is append-only: % on audit_log refused', tg_op using errcode = 'restrict_violation';
      end $$;`;
}
