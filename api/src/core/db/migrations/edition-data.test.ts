import { randomBytes } from 'node:crypto';
import { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { adminQuery, databaseUrlFor } from '../../../testing/database.js';
import '../../../testing/services.js';
import { rebuildProjections } from '../../status-log/projections.js';
import { createOrmConfig } from '../orm.js';

/**
 * A database in the shape it had before editions held the data, with rows in every table, migrates
 * into one edition (the first): nothing lost, every row of a meeting belongs to it, the log replays.
 */

const services = inject('services');
const name = `${services.templateDb.replace('template', 'test')}_editions_${randomBytes(4).toString('hex')}`;
const url = databaseUrlFor(services.databaseUrl, name);

afterAll(async () => {
  await adminQuery(services.databaseUrl, `drop database if exists "${name}" with (force)`);
});

const TABLES = [
  'users',
  'session',
  'vehicle',
  'media',
  'upload',
  'review',
  'consent',
  'invitation',
  'check_in_scan',
  'quartett_set',
  'quartett_card',
  'public_vehicle',
  'visitor_registration',
  'visitor_update',
  'visitor_update_recipient',
  'email_log',
  'outbox',
  'setting',
  'data_export',
  'retention_run',
] as const;

/** Two owners, three applications (confirmed and checked in, invited, draft), and one row or more in every other table. */
const TODAY = `
  insert into users (id, email, password_hash, first_name, last_name, created_at, updated_at) values
    ('00000000-0000-4000-8000-000000000001', 'juergen@example.de', 'x', 'Jürgen', 'Größmann', now(), now()),
    ('00000000-0000-4000-8000-000000000002', 'lena@example.de', 'x', 'Lena', 'Weber', now(), now());
  insert into session (sid, sess, expire) values ('s1', '{}', now() + interval '1 day');
  insert into vehicle (id, user_id, title, brand, model, year, status, ps, weight_kg, top_speed_kmh,
                       zero_to_hundred_s, created_at, updated_at) values
    ('00000000-0000-4000-8000-0000000000a1', '00000000-0000-4000-8000-000000000001', 'Audi Sport Quattro', 'Audi',
     'Sport Quattro', 1985, 'confirmed', 306, 1300, 250, 4.8, now(), now()),
    ('00000000-0000-4000-8000-0000000000a2', '00000000-0000-4000-8000-000000000002', 'Lancia Delta', 'Lancia',
     'Delta', 1992, 'invited', 210, 1200, 220, 5.7, now(), now()),
    ('00000000-0000-4000-8000-0000000000a3', '00000000-0000-4000-8000-000000000002', 'Fiat X1/9', 'Fiat',
     'X1/9', 1980, 'draft', 85, 900, 170, 11.0, now(), now());
  insert into media (id, vehicle_id, url, created_at) values
    ('00000000-0000-4000-8000-0000000000b1', '00000000-0000-4000-8000-0000000000a1', '/objects/media/b1/full.jpg', now());
  insert into upload (key, user_id, content_type, size, created_at) values
    ('uploads/u1.jpg', '00000000-0000-4000-8000-000000000001', 'image/jpeg', 1, now());
  insert into review (id, vehicle_id, actor_role, old_status, new_status, created_at) values
    (gen_random_uuid(), '00000000-0000-4000-8000-0000000000a1', 'user', null, 'submitted', now() - interval '3 hours'),
    (gen_random_uuid(), '00000000-0000-4000-8000-0000000000a1', 'admin', 'submitted', 'invited', now() - interval '2 hours'),
    (gen_random_uuid(), '00000000-0000-4000-8000-0000000000a1', 'user', 'invited', 'confirmed', now() - interval '1 hour'),
    (gen_random_uuid(), '00000000-0000-4000-8000-0000000000a2', 'user', null, 'submitted', now() - interval '3 hours'),
    (gen_random_uuid(), '00000000-0000-4000-8000-0000000000a2', 'admin', 'submitted', 'invited', now() - interval '2 hours'),
    (gen_random_uuid(), '00000000-0000-4000-8000-0000000000a3', 'user', null, 'draft', now());
  insert into consent (id, user_id, vehicle_id, kind, version, wording, source, granted_at) values
    (gen_random_uuid(), '00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-0000000000a1', 'media',
     '1', 'Bilder', 'application', now());
  insert into invitation (id, vehicle_id, qr_code, parking_zone, created_at) values
    ('00000000-0000-4000-8000-0000000000c1', '00000000-0000-4000-8000-0000000000a1', 'code-1', 'A', now()),
    ('00000000-0000-4000-8000-0000000000c2', '00000000-0000-4000-8000-0000000000a2', 'code-2', 'A', now());
  insert into check_in_scan (id, invitation_id, device_id, gate, scanned_at) values
    (gen_random_uuid(), '00000000-0000-4000-8000-0000000000c1', gen_random_uuid(), 'Nordtor', now());
  insert into quartett_set (id, title, created_at) values
    ('00000000-0000-4000-8000-0000000000d1', 'Quartett', now());
  insert into quartett_card (id, set_id, vehicle_id, code, position) values
    (gen_random_uuid(), '00000000-0000-4000-8000-0000000000d1', '00000000-0000-4000-8000-0000000000a1', 'A1', 1);
  insert into public_vehicle (vehicle_id, data, listed_at, updated_at) values
    ('00000000-0000-4000-8000-0000000000a1', '{"id": "00000000-0000-4000-8000-0000000000a1"}', now(), now());
  insert into visitor_registration (id, first_name, last_name, email, created_at, confirmed_at) values
    ('00000000-0000-4000-8000-0000000000e1', 'Vera', 'Besuch', 'vera@example.de', now(), now());
  insert into visitor_update (id, subject, body) values ('00000000-0000-4000-8000-0000000000f1', 'Zeitplan', 'Um 10 Uhr.');
  insert into visitor_update_recipient (id, update_id, registration_id) values
    (gen_random_uuid(), '00000000-0000-4000-8000-0000000000f1', '00000000-0000-4000-8000-0000000000e1');
  insert into email_log (id, job_id, recipient, template, created_at, updated_at) values
    (gen_random_uuid(), 'job-1', 'juergen@example.de', 'invitation', now(), now());
  insert into outbox (id, job, payload, created_at) values (gen_random_uuid(), 'waitlist.advance', '{}', now());
  insert into setting (key, value) values ('autoMoveUp', 'true');
  insert into data_export (id, user_id, created_at) values (gen_random_uuid(), '00000000-0000-4000-8000-000000000001', now());
  insert into retention_run (id, started_at, as_of, removed) values (gen_random_uuid(), now(), now(), '{}');
`;

describe('the editions migration', () => {
  it("moves today's rows into the first edition: every table keeps its rows, start numbers go on, the log replays", async () => {
    await adminQuery(services.databaseUrl, `create database "${name}"`);
    const orm = await MikroORM.init(createOrmConfig(url));
    try {
      await orm.migrator.up({ to: 'Migration20261201000000_editions' });
      const connection = orm.em.getConnection();
      await connection.execute(TODAY);
      const counts = async () =>
        Object.fromEntries(
          await Promise.all(
            TABLES.map(async (table) => {
              const [row] = await connection.execute<Array<{ n: number }>>(
                `select count(*)::int as n from "${table}"`,
              );
              return [table, row!.n] as const;
            }),
          ),
        );
      const before = await counts();
      for (const table of TABLES) expect(before[table], table).toBeGreaterThan(0);
      const numbers = await connection.execute<Array<{ start_number: number }>>(
        `select start_number from invitation order by start_number`,
      );

      await orm.migrator.up();

      expect(await counts()).toEqual(before);
      const [first] = await connection.execute<
        Array<{ id: string; year: number; next_start_number: number }>
      >(`select id, year, next_start_number from edition order by year limit 1`);
      for (const table of [
        'vehicle',
        'quartett_set',
        'visitor_registration',
        'visitor_update',
        'invitation',
        'public_vehicle',
      ]) {
        const [row] = await connection.execute<Array<{ other: number }>>(
          `select count(*)::int as other from "${table}" where edition_id is distinct from ?`,
          [first!.id],
        );
        expect(row!.other, table).toBe(0);
      }
      // The start numbers given stay; the next one comes after them.
      expect(await connection.execute(`select start_number from invitation order by start_number`)).toEqual(
        numbers,
      );
      expect(first!.next_start_number).toBeGreaterThan(Math.max(...numbers.map((row) => row.start_number)));

      const replay = await rebuildProjections(orm.em.fork(), { write: false });
      expect(replay).toMatchObject({ vehicles: 3, events: 6, mismatches: [] });
    } finally {
      await orm.close();
    }
  });
});
