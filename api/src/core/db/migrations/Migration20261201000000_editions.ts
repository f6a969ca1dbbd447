import { Migration } from '@mikro-orm/migrations';
import { eventFromEnv, eventYear } from '@schlosstreffen/shared';

/** The first moment any edition is current or open from: earlier than anything the platform holds. */
const FROM_THE_START = '1970-01-01T00:00:00Z';

/**
 * Editions: one row per meeting. The first edition is the event the environment describes now
 * (EVENT_*, APPLICATION_DEADLINE, PARKING_ZONES, INVITATION_*): current and open from the start, so
 * the data the platform holds belongs to it. Afterwards admins manage editions; the variables are
 * not read again.
 */
export class Migration20261201000000_editions extends Migration {
  override name = 'Migration20261201000000_editions';

  override async up(): Promise<void> {
    await this.execute(`create table "edition" (
      "id" uuid not null primary key,
      "year" int not null,
      "name" varchar(100) not null,
      "starts_at" timestamptz not null,
      "ends_at" timestamptz not null,
      "gate_opens_at" timestamptz not null,
      "place" varchar(200) not null,
      "applications_open_at" timestamptz null,
      "application_deadline" varchar(10) not null,
      "parking_zones" jsonb not null,
      "confirm_days" int not null,
      "cutoff_days" int not null,
      "reminder_days" int not null,
      "current_from" timestamptz null,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now(),
      constraint "edition_year_unique" unique ("year"),
      constraint "edition_period_check" check ("ends_at" > "starts_at")
    );`);
    const event = eventFromEnv(process.env);
    const year = eventYear(event.start);
    await this.execute(
      `insert into "edition" ("id", "year", "name", "starts_at", "ends_at", "gate_opens_at", "place",
         "applications_open_at", "application_deadline", "parking_zones", "confirm_days", "cutoff_days",
         "reminder_days", "current_from")
       values (gen_random_uuid(), ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?, ?, ?, ?);`,
      [
        year,
        `${event.name} ${year}`,
        event.start.toISOString(),
        event.end.toISOString(),
        event.gateOpensAt.toISOString(),
        event.place,
        FROM_THE_START,
        event.applicationDeadline,
        JSON.stringify(event.parkingZones),
        event.invitations.confirmDays,
        event.invitations.cutoffDays,
        event.invitations.reminderDays,
        FROM_THE_START,
      ],
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "edition" cascade;`);
  }
}
