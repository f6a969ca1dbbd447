import { randomUUID } from 'node:crypto';
import { CONSENTS } from '@schlosstreffen/shared';
import type { TestContext } from './test-context.js';

export interface InsertedApplication {
  id: string;
  userId: string;
  email: string;
  firstName: string;
  lastName: string;
  brand: string;
  model: string;
}

/**
 * `count` submitted applications of an edition (the test's first unless named), each of a confirmed
 * applicant of its own, written straight into the tables with their status-log rows, without the
 * mails an application through the API would queue: for tests of many applications at once. The
 * n-th is the newest but n (so the dashboard's order is the order given) and its model is
 * `${model} ${n}`.
 */
export async function insertSubmittedApplications(
  t: TestContext,
  count: number,
  options: { label: string; brand?: string; model?: string; editionId?: string },
): Promise<InsertedApplication[]> {
  const editionId = options.editionId ?? t.event.edition.id;
  const brand = options.brand ?? 'Opel';
  const rows: InsertedApplication[] = Array.from({ length: count }, (_, n) => ({
    id: randomUUID(),
    userId: randomUUID(),
    email: `${options.label}-${n}@bewerbung.test`,
    firstName: `Vorname${n}`,
    lastName: `Nachname${n}`,
    brand,
    model: `${options.model ?? 'Kadett'} ${n}`,
  }));
  if (count === 0) return rows;
  const connection = t.orm.em.getConnection();
  const values = (perRow: string) => rows.map(() => perRow).join(', ');
  await connection.execute(
    `insert into users (id, email, password_hash, first_name, last_name, email_verified, created_at, updated_at)
     values ${values("(?, ?, 'x', ?, ?, true, now(), now())")}`,
    rows.flatMap((row) => [row.userId, row.email, row.firstName, row.lastName]),
    'run',
  );
  await connection.execute(
    `insert into vehicle (id, user_id, edition_id, title, brand, model, year, status, ps, weight_kg,
                          top_speed_kmh, zero_to_hundred_s, created_at, updated_at)
     values ${values(
       `(?, ?, ?, ?, ?, ?, 1990, 'submitted', 150, 1000, 200, 8.5,
         now() - make_interval(secs => ?), now())`,
     )}`,
    rows.flatMap((row, n) => [
      row.id,
      row.userId,
      editionId,
      `${row.brand} ${row.model}`,
      row.brand,
      row.model,
      n,
    ]),
    'run',
  );
  await connection.execute(
    `insert into review (id, vehicle_id, reviewer_id, actor_role, old_status, new_status, created_at)
     values ${values("(?, ?, ?, 'user', null, 'submitted', now())")}`,
    rows.flatMap((row) => [randomUUID(), row.id, row.userId]),
    'run',
  );
  return rows;
}

/** The applicant withdrew the consent to be contacted about the application. */
export async function withdrawContactConsent(
  t: TestContext,
  application: InsertedApplication,
): Promise<void> {
  await t.orm.em.getConnection().execute(
    `insert into consent (id, user_id, vehicle_id, kind, version, wording, source, granted_at, withdrawn_at)
     values (?, ?, ?, 'contact', ?, ?, 'application', now() - interval '1 day', now())`,
    [randomUUID(), application.userId, application.id, CONSENTS.contact.version, CONSENTS.contact.text],
    'run',
  );
}
