import { Migration } from '@mikro-orm/migrations';

/**
 * What the public pages show, as inputs with a version each: the public list ('vehicles'), the
 * public texts ('texts'), the editions ('editions') and the arrivals at the gate ('arrivals'). A
 * statement that changes one takes the next number of its sequence and announces `name:version`
 * on the channel `public_input` when its transaction commits. A sequence, not a counter row: a
 * transaction never waits for another's lock to bump it, and a rolled-back number only costs a
 * page rendered once more. This replaces the public list's own channel.
 */
export const PUBLIC_INPUTS = {
  vehicles: 'public_vehicle',
  texts: 'public_text',
  editions: 'edition',
  arrivals: 'invitation',
} as const;

export class Migration20261216000000_public_inputs extends Migration {
  override name = 'Migration20261216000000_public_inputs';

  override up(): void | Promise<void> {
    this.addSql(`drop trigger if exists "public_vehicle_truncated" on "public_vehicle";`);
    this.addSql(`drop trigger if exists "public_vehicle_changed" on "public_vehicle";`);
    this.addSql(`drop function if exists "public_vehicle_notify"();`);
    this.addSql(`create function "public_input_changed"() returns trigger language plpgsql as $$
      begin
        perform pg_notify('public_input',
          tg_argv[0] || ':' || nextval(format('%I', 'public_input_' || tg_argv[0])::regclass));
        return null;
      end $$;`);
    for (const [input, table] of Object.entries(PUBLIC_INPUTS)) {
      this.addSql(`create sequence "public_input_${input}";`);
      // Arrivals change with a check-in (or its correction): other edits of an invitation do not count.
      const events =
        input === 'arrivals' ? 'insert or delete or update of checked_in_at' : 'insert or update or delete';
      this.addSql(
        `create trigger "public_input_${input}" after ${events} on "${table}" for each statement execute function "public_input_changed"('${input}');`,
      );
      this.addSql(
        `create trigger "public_input_${input}_truncated" after truncate on "${table}" for each statement execute function "public_input_changed"('${input}');`,
      );
    }
  }

  override down(): void | Promise<void> {
    for (const [input, table] of Object.entries(PUBLIC_INPUTS)) {
      this.addSql(`drop trigger if exists "public_input_${input}_truncated" on "${table}";`);
      this.addSql(`drop trigger if exists "public_input_${input}" on "${table}";`);
      this.addSql(`drop sequence if exists "public_input_${input}";`);
    }
    this.addSql(`drop function if exists "public_input_changed"();`);
  }
}
