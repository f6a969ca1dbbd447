import { randomBytes } from 'node:crypto';
import { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { adminQuery, databaseUrlFor } from '../../../testing/database.js';
import '../../../testing/services.js';
import { createOrmConfig } from '../orm.js';

/**
 * The award's voters become one per mailbox: a database with voters of several spellings of one
 * mailbox, in an edition whose voting is open and in one whose voting closed, migrates into one voter
 * each, with one vote a car, the earliest three counted and the earliest three waiting per browser.
 */

const services = inject('services');
const name = `${services.templateDb.replace('template', 'test')}_mailbox_${randomBytes(4).toString('hex')}`;
const url = databaseUrlFor(services.databaseUrl, name);

afterAll(async () => {
  await adminQuery(services.databaseUrl, `drop database if exists "${name}" with (force)`);
});

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const OWNER = id(1);
const B = id(11);
let A = '';
const [C1, C2, C3, C4, D1] = [id(21), id(22), id(23), id(24), id(25)];
const V = {
  name1: id(31),
  name2: id(32),
  name: id(33),
  dots: id(34),
  googlemail: id(35),
  solo: id(36),
  x1: id(37),
  x: id(38),
};
const at = (minutes: number) => `'2026-06-20T10:${String(minutes).padStart(2, '0')}:00Z'`;

/** Edition A's voting is open, edition B's closed with its totals written. */
const rows = () => `
  create temp table second_edition as select * from edition;
  update second_edition set id = '${B}', year = year - 1, name = name || ' (Vorjahr)', current_from = null;
  insert into edition select * from second_edition;
  insert into users (id, email, password_hash, first_name, last_name, created_at, updated_at) values
    ('${OWNER}', 'owner@example.de', 'x', 'Lena', 'Weber', now(), now());
  insert into vehicle (id, user_id, edition_id, title, brand, model, year, status, ps, weight_kg,
                       top_speed_kmh, zero_to_hundred_s, created_at, updated_at)
  select v.id::uuid, '${OWNER}', v.edition::uuid, 'Auto', 'Audi', 'Quattro', 1985, 'confirmed', 306, 1300, 250, 4.8, now(), now()
    from (values ('${C1}', '${A}'), ('${C2}', '${A}'), ('${C3}', '${A}'), ('${C4}', '${A}'), ('${D1}', '${B}')) v(id, edition);
  insert into award (edition_id, opened_at, closed_at, results, created_at) values
    ('${A}', ${at(0)}, null, null, now()),
    ('${B}', ${at(0)}, ${at(59)}, '[{"vehicleId": "${D1}", "startNumber": 1, "name": "Auto", "votes": 2, "rank": 1}]', now());
  insert into award_voter (id, edition_id, email, confirmed_at, confirmed_via, network, confirmation_sent_at, created_at) values
    ('${V.name1}', '${A}', 'name+1@example.de', ${at(10)}, 'link', '192.0.2.1', ${at(9)}, ${at(9)}),
    ('${V.name2}', '${A}', 'name+2@example.de', ${at(5)}, 'link', '192.0.2.2', ${at(4)}, ${at(4)}),
    ('${V.name}', '${A}', 'name@example.de', null, null, '192.0.2.3', ${at(20)}, ${at(20)}),
    ('${V.dots}', '${A}', 'n.a.m.e@gmail.com', null, null, '192.0.2.4', ${at(1)}, ${at(1)}),
    ('${V.googlemail}', '${A}', 'name+x@googlemail.com', null, null, '192.0.2.5', ${at(2)}, ${at(2)}),
    ('${V.solo}', '${A}', 'solo@example.de', ${at(3)}, 'account', '192.0.2.6', null, ${at(3)}),
    ('${V.x1}', '${B}', 'x+1@example.de', ${at(1)}, 'link', '192.0.2.7', ${at(1)}, ${at(1)}),
    ('${V.x}', '${B}', 'x@example.de', ${at(2)}, 'link', '192.0.2.8', ${at(2)}, ${at(2)});
  insert into award_vote (voter_id, vehicle_id, edition_id, slot, network, browser, created_at) values
    ('${V.name2}', '${C2}', '${A}', 1, '192.0.2.2', null, ${at(6)}),
    ('${V.name2}', '${C3}', '${A}', 2, '192.0.2.2', null, ${at(12)}),
    ('${V.name2}', '${C4}', '${A}', 3, '192.0.2.2', null, ${at(13)}),
    ('${V.name1}', '${C1}', '${A}', 1, '192.0.2.1', null, ${at(11)}),
    ('${V.name1}', '${C2}', '${A}', 2, '192.0.2.1', null, ${at(12)}),
    ('${V.name}', '${C1}', '${A}', 1, '192.0.2.3', 'b1', ${at(21)}),
    ('${V.name}', '${C4}', '${A}', 2, '192.0.2.3', 'b1', ${at(22)}),
    ('${V.dots}', '${C1}', '${A}', 1, '192.0.2.4', 'b2', ${at(1)}),
    ('${V.googlemail}', '${C1}', '${A}', 1, '192.0.2.5', 'b2', ${at(2)}),
    ('${V.googlemail}', '${C2}', '${A}', 2, '192.0.2.5', 'b3', ${at(3)}),
    ('${V.solo}', '${C3}', '${A}', 1, '192.0.2.6', null, ${at(4)}),
    ('${V.x1}', '${D1}', '${B}', 1, '192.0.2.7', null, ${at(1)}),
    ('${V.x}', '${D1}', '${B}', 1, '192.0.2.8', null, ${at(2)});
  insert into visitor_registration (id, edition_id, first_name, last_name, email, created_at, confirmed_at) values
    ('${id(41)}', '${A}', 'Vera', 'Besuch', 'vera+info@example.de', now(), now());
`;

describe('the award mailbox migration', () => {
  it('merges the voters of one mailbox: one vote a car, the earliest three counted and three waiting a browser; the written totals stay', async () => {
    await adminQuery(services.databaseUrl, `create database "${name}"`);
    const logged: string[] = [];
    const orm = await MikroORM.init(createOrmConfig(url, { logger: (line) => logged.push(line) }));
    try {
      await orm.migrator.up({ to: 'Migration20261221000000_car_page_input' });
      const connection = orm.em.getConnection();
      A = (await connection.execute<Array<{ id: string }>>(`select id from edition`))[0]!.id;
      await connection.execute(rows());
      await orm.migrator.up({ to: 'Migration20261222100000_award_mailbox' });

      expect(logged).toContainEqual(
        expect.stringContaining(
          'Award voters merged by mailbox: 3 mailboxes, 4 voters merged away, 4 votes moved to the kept voter, 4 votes dropped',
        ),
      );
      const voters = await connection.execute<
        Array<{ id: string; edition_id: string; mailbox: string; confirmed_at: string | null }>
      >(
        `select id, edition_id, mailbox, confirmed_at from award_voter order by edition_id = '${B}', mailbox`,
      );
      expect(voters.map(({ id, edition_id, mailbox }) => ({ id, edition_id, mailbox }))).toEqual([
        // The one confirmed first stays.
        { id: V.name2, edition_id: A, mailbox: 'name@example.de' },
        { id: V.dots, edition_id: A, mailbox: 'name@gmail.com' },
        { id: V.solo, edition_id: A, mailbox: 'solo@example.de' },
        { id: V.x1, edition_id: B, mailbox: 'x@example.de' },
      ]);
      expect(new Date(voters.find((voter) => voter.id === V.name2)!.confirmed_at!).toISOString()).toBe(
        '2026-06-20T10:05:00.000Z',
      );

      const votes = await connection.execute<
        Array<{ voter_id: string; vehicle_id: string; browser: string; slot: number }>
      >(`select voter_id, vehicle_id, browser, slot from award_vote order by voter_id, browser, slot`);
      const of = (voter: string) =>
        votes
          .filter((vote) => vote.voter_id === voter)
          .map(({ vehicle_id, browser, slot }) => [vehicle_id, browser, slot]);
      // Counted: C2 (its earliest), C1, C3; C2 again and C4 (a fourth) dropped. Waiting in b1: C1, C4.
      expect(of(V.name2)).toEqual([
        [C2, '', 1],
        [C1, '', 2],
        [C3, '', 3],
        [C1, 'b1', 1],
        [C4, 'b1', 2],
      ]);
      // Waiting per browser, one a car: b2's C1 once, b3's C2.
      expect(of(V.dots)).toEqual([
        [C1, 'b2', 1],
        [C2, 'b3', 1],
      ]);
      expect(of(V.solo)).toEqual([[C3, '', 1]]);
      expect(of(V.x1)).toEqual([[D1, '', 1]]);

      // The closed edition's final totals are as written.
      const [closed] = await connection.execute<Array<{ results: unknown }>>(
        `select results from award where edition_id = '${B}'`,
      );
      expect(closed!.results).toEqual([{ vehicleId: D1, startNumber: 1, name: 'Auto', votes: 2, rank: 1 }]);
      const [visitor] = await connection.execute<Array<{ mailbox: string }>>(
        `select mailbox from visitor_registration where id = '${id(41)}'`,
      );
      expect(visitor!.mailbox).toBe('vera@example.de');
    } finally {
      await orm.close();
    }
  });
});
