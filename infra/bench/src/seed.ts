/**
 * The bench's data set, written with set-based SQL (generate_series): 10,000 owners and their
 * applications in five editions of 2,000 each (the current one and the four years before it; the
 * newest 70 confirmed with their invitations and the next 200 submitted are the current edition's,
 * the rest draft, in review, waitlist or (in the current edition) rejected), 50,000 media rows (first one the hero, all with their renditions
 * recorded), each vehicle's status log and the current edition's public texts as edited by an admin
 * (introduction and FAQ). The
 * public list is then rebuilt from the log by the CLI (`projections:rebuild`), which must find it
 * consistent (`--verify`).
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { createS3Client, initOrm, renditionKey } from '@schlosstreffen/api/core';
import type { S3Settings } from '@schlosstreffen/infra/dev-services';
import { EventEnvSchema } from '@schlosstreffen/shared';
import pg from 'pg';
import { makePhoto, makeRenditions, putObjects, type PutItem } from './photos.js';
import { DATA, databaseUrl, ROOT } from './settings.js';

const run = promisify(execFile);

/**
 * Creates the database and applies the migrations (as the api does at start); the event variables
 * of the api's environment describe its first edition, as they would for the api.
 */
export async function migrate(env: NodeJS.ProcessEnv): Promise<void> {
  for (const name of Object.keys(EventEnvSchema.entries)) {
    if (env[name] !== undefined) process.env[name] = env[name];
  }
  const orm = await initOrm(databaseUrl);
  await orm.close();
}

export async function withDatabase<T>(use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

const {
  vehicles: N,
  confirmed: CONFIRMED,
  submitted: SUBMITTED,
  mediaPerVehicle: PER_VEHICLE,
  heroRenditions: HERO_RENDITIONS,
} = DATA;

/**
 * Status of vehicle g (1-based): the first 70 confirmed, the next 200 submitted, the rest of the
 * current edition mixed. The earlier editions' applications hold no rejected ones: retention removes
 * those a year after their edition, which the worker would do while R2 measures.
 */
const STATUS_OF_G = `case when g <= ${CONFIRMED} then 'confirmed'
  when g <= ${CONFIRMED + SUBMITTED} then 'submitted'
  when g <= ${DATA.perEdition} then (array['draft', 'in_review', 'waitlist', 'rejected'])[g % 4 + 1]
  else (array['draft', 'in_review', 'waitlist'])[g % 3 + 1] end`;

/** The status log path that leads to each status; the owner creates, a reviewer decides. */
const PATHS = `(values
  ('draft', 1, null::text, 'draft', 'user'),
  ('submitted', 1, null, 'submitted', 'user'),
  ('in_review', 1, null, 'submitted', 'user'), ('in_review', 2, 'submitted', 'in_review', 'reviewer'),
  ('waitlist', 1, null, 'submitted', 'user'), ('waitlist', 2, 'submitted', 'in_review', 'reviewer'),
  ('waitlist', 3, 'in_review', 'waitlist', 'reviewer'),
  ('rejected', 1, null, 'submitted', 'user'), ('rejected', 2, 'submitted', 'in_review', 'reviewer'),
  ('rejected', 3, 'in_review', 'rejected', 'reviewer'),
  ('confirmed', 1, null, 'submitted', 'user'), ('confirmed', 2, 'submitted', 'in_review', 'reviewer'),
  ('confirmed', 3, 'in_review', 'invited', 'reviewer'), ('confirmed', 4, 'invited', 'confirmed', 'user')
) as p(status, step, old_status, new_status, role)`;

const DESCRIPTION_SHORT =
  'Tiefergelegt auf Gewindefahrwerk, Software-Optimierung vom Prüfstand, Edelstahl-Abgasanlage mit Klappensteuerung und 19-Zoll-Schmiedefelgen.';
const DESCRIPTION_LONG = `${DESCRIPTION_SHORT} `.repeat(4).trim();

/** The current edition: the api's environment describes it (the migration's first edition). */
const CURRENT = `(select id from edition order by current_from desc nulls last, year desc limit 1)`;

/** Vehicle g's edition: the newest PER_EDITION the current one's, each older block a year earlier. */
const EDITION_OF_G = `(select e.id from edition e
  where e.year = (select year from edition where id = ${CURRENT}) - (g - 1) / ${DATA.perEdition})`;

/**
 * The current edition's public texts as an admin edits them on 'Texte' (R5 measures the landing page
 * with them): an introduction and eight FAQ entries with formatted answers (bold, lists, a link).
 */
const EDITED_FAQ = Array.from({ length: 8 }, (_, n) => ({
  question: `Frage ${n + 1}: Was gilt für Teilnehmer und Besucher am Veranstaltungstag?`,
  answer:
    `Bitte beachte die Hinweise zum Ablauf. **Einlass für Teilnehmer ab 8 Uhr**, für Besucher ab 10 Uhr.\n\n` +
    `- Parken auf den ausgeschilderten Flächen\n- Festes Schuhwerk empfohlen\n- Hunde an der Leine\n\n` +
    `Mehr dazu in der [Datenschutzerklärung](/datenschutz) und bei Fragen per E-Mail an das Orga-Team.`,
}));
const EDITED_INTRODUCTION =
  'Das Tuning-Treffen vor historischer Schlosskulisse in Sachsen: **individuell aufgebaute Fahrzeuge**, ihre Geschichten und die Menschen dahinter.';

const STATEMENTS = [
  `insert into public_text (edition_id, introduction, event_details, faq, updated_by, updated_at)
   values (${CURRENT}, '${EDITED_INTRODUCTION.replaceAll("'", "''")}', null,
           '${JSON.stringify(EDITED_FAQ).replaceAll("'", "''")}'::jsonb, null, now())`,
  // Four earlier editions, the current one's dates that many years before, never current (archived).
  `insert into edition (id, year, name, starts_at, ends_at, gate_opens_at, place, applications_open_at,
                        application_deadline, parking_zones, confirm_days, cutoff_days, reminder_days)
   select gen_random_uuid(), c.year - k, 'Schlosstreffen ' || (c.year - k), c.starts_at - make_interval(years => k),
          c.ends_at - make_interval(years => k), c.gate_opens_at - make_interval(years => k), c.place,
          c.applications_open_at, ((c.application_deadline::date) - make_interval(years => k))::date::text,
          c.parking_zones, c.confirm_days, c.cutoff_days, c.reminder_days
   from edition c cross join generate_series(1, ${DATA.editions - 1}) k
   where c.id = ${CURRENT}`,
  `insert into users (id, email, password_hash, first_name, last_name, role, consent_media, consent_quartett,
                      consent_contact, email_verified, created_at, updated_at)
   select gen_random_uuid(), 'owner-' || g || '@bench.test', '$argon2id$v=19$m=19456,t=2,p=1$bench$seeded',
          (array['Lena', 'Jonas', 'Mia', 'Felix', 'Emma', 'Paul', 'Hannah', 'Lukas'])[g % 8 + 1], 'Nr' || g,
          'user', true, true, true, true, now() - g * interval '1 hour', now()
   from generate_series(1, ${N}) g`,
  `insert into vehicle (id, user_id, edition_id, title, name, brand, model, year, color, license_plate, tuning_categories,
                        description_short, description_long, status, ps, kw, torque_nm, weight_kg, top_speed_kmh,
                        zero_to_hundred_s, drive_type, displacement_ccm, cylinders, fuel_type, created_at, updated_at)
   select gen_random_uuid(), u.id, ${EDITION_OF_G}, b.brand || ' ' || m.model, case when g % 3 = 0 then 'Projekt ' || g end,
          b.brand, m.model, 1970 + g % 55, (array['Schwarz', 'Nardograu', 'Rot', 'Weiß', 'Blau'])[g % 5 + 1],
          'DD-ST ' || g, '["Fahrwerk", "Motor", "Optik"]'::jsonb, '${DESCRIPTION_SHORT}', '${DESCRIPTION_LONG}',
          ${STATUS_OF_G}, 100 + g % 500, round((100 + g % 500) * 0.7355), 150 + g % 600, 900 + g % 1500,
          150 + g % 200, 3.5 + (g % 80) / 10.0, (array['FWD', 'RWD', 'AWD'])[g % 3 + 1], 1400 + (g % 30) * 100,
          (array[4, 6, 8])[g % 3 + 1], (array['Benzin', 'Diesel', 'Hybrid'])[g % 3 + 1],
          now() - g * interval '10 minutes', now()
   from generate_series(1, ${N}) g
   cross join lateral (select (array['BMW', 'Audi', 'Porsche', 'VW', 'Opel', 'Mercedes-Benz', 'Toyota', 'Nissan'])[g % 8 + 1] as brand) b
   cross join lateral (select (array['M3 E46', 'RS4 B7', '911 GT3', 'Golf R32', 'Calibra', '190E 2.5-16', 'Supra MK4', 'Skyline R34'])[g % 8 + 1] as model) m
   join users u on u.email = 'owner-' || g || '@bench.test'`,
  // Confirmed vehicles hold their invitation: start numbers in order, the zones A:30, B:25, C:15 filled.
  `insert into invitation (id, vehicle_id, edition_id, start_number, qr_code, parking_zone, created_at)
   select gen_random_uuid(), v.id, v.edition_id, row_number() over w, md5(random()::text) || md5(random()::text),
          case when row_number() over w <= 30 then 'A' when row_number() over w <= 55 then 'B' else 'C' end,
          v.created_at + interval '3 hours'
   from vehicle v where v.status = 'confirmed'
   window w as (order by v.created_at desc, v.id)
   order by v.created_at desc, v.id`,
  `with rows as (
     select gen_random_uuid() as id, v.id as vehicle_id, v.user_id, v.created_at, p
     from vehicle v cross join generate_series(0, ${PER_VEHICLE - 1}) p
   )
   insert into media (id, vehicle_id, type, url, thumbnail_url, is_hero, priority, width, height, file_size,
                      crop_x, crop_y, scale, approval_status, created_at)
   select id, vehicle_id, 'image', '/objects/media/' || id || '/full.jpg',
          '/objects/thumbs/' || id || '/480.webp', p = 0, p, 1600, 1000, 250000 + p * 1000,
          50, 45, 100 + p * 10, 'auto', created_at + p * interval '1 second'
   from rows order by vehicle_id, p`,
  `insert into review (id, vehicle_id, reviewer_id, actor_role, actor_name, old_status, new_status, created_at)
   select gen_random_uuid(), v.id, case when p.role = 'user' then u.id end, p.role,
          case when p.role = 'user' then null else 'Bench Reviewer' end,
          p.old_status, p.new_status, v.created_at + p.step * interval '1 hour'
   from vehicle v join users u on u.id = v.user_id join ${PATHS} on p.status = v.status
   order by v.created_at, v.id, p.step`,
];

export interface Seeded {
  /** Submitted vehicles with their owners' addresses, for R6. */
  submitted: { id: string; email: string }[];
  /** Draft vehicles (5 images each), for R3's extra images. */
  drafts: { id: string; userId: string }[];
  /**
   * The hero images of the newest DATA.heroRenditions vehicles (the confirmed ones among them):
   * R4 prints from them, R5 shows the confirmed ones.
   */
  heroes: { mediaId: string; confirmed: boolean }[];
}

export async function seed(): Promise<Seeded> {
  await withDatabase(async (client) => {
    await client.query('begin');
    for (const sql of STATEMENTS) await client.query(sql);
    await client.query('commit');
  });
  const cli = (...args: string[]) =>
    run(process.execPath, [path.join('api', 'dist', 'cli', 'cli.js'), ...args], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: databaseUrl },
    });
  await cli('projections:rebuild');
  // Exits 1 when the seeded log and the projections disagree.
  await cli('projections:rebuild', '--verify');

  return withDatabase(async (client) => {
    // As autovacuum would by the time anyone reads: statistics, and the visibility map that lets
    // counts read indexes only.
    await client.query('vacuum analyze');
    const counts = await client.query<{ vehicles: number; media: number; confirmed: number; listed: number }>(
      `select (select count(*)::int from vehicle) as vehicles, (select count(*)::int from media) as media,
              (select count(*)::int from vehicle where status = 'confirmed' and edition_id = ${CURRENT}) as confirmed,
              (select count(*)::int from public_vehicle) as listed`,
    );
    const expected = { vehicles: N, media: N * PER_VEHICLE, confirmed: CONFIRMED, listed: CONFIRMED };
    if (JSON.stringify(counts.rows[0]) !== JSON.stringify(expected)) {
      throw new Error(`seeded ${JSON.stringify(counts.rows[0])}, expected ${JSON.stringify(expected)}`);
    }
    const submitted = await client.query<{ id: string; email: string }>(
      `select v.id, u.email from vehicle v join users u on u.id = v.user_id
       where v.status = 'submitted' order by v.created_at desc`,
    );
    const drafts = await client.query<{ id: string; userId: string }>(
      `select id, user_id as "userId" from vehicle where status = 'draft' order by created_at desc`,
    );
    const heroes = await client.query<{ mediaId: string; confirmed: boolean }>(
      `select m.id as "mediaId", v.status = 'confirmed' as confirmed
       from media m join vehicle v on v.id = m.vehicle_id where m.is_hero
       order by v.created_at desc, v.id limit $1`,
      [HERO_RENDITIONS],
    );
    return { submitted: submitted.rows, drafts: drafts.rows, heroes: heroes.rows };
  });
}

/** The distinct test photos. */
export async function makePhotos(): Promise<Buffer[]> {
  const photos: Buffer[] = [];
  for (let index = 0; index < DATA.distinctPhotos; index++) photos.push(await makePhoto(index));
  return photos;
}

/**
 * The stored renditions of the hero images: 1280 px for all (the quartett renders every hero), and
 * 480 px for the confirmed ones, which the landing page shows.
 */
export async function storeHeroRenditions(
  s3: S3Settings,
  photos: readonly Buffer[],
  heroes: Seeded['heroes'],
): Promise<number> {
  const renditions = await Promise.all(photos.map(makeRenditions));
  const items: PutItem[] = heroes.flatMap((hero, index) => {
    const rendition = renditions[index % renditions.length]!;
    const sizes = hero.confirmed ? ([480, 1280] as const) : ([1280] as const);
    return sizes.map((width) => ({
      key: renditionKey(hero.mediaId, width),
      body: rendition[width],
      contentType: 'image/webp',
    }));
  });
  const client = createS3Client({ ...s3, publicEndpoint: s3.endpoint });
  try {
    await putObjects(client, s3.bucket, items);
  } finally {
    client.destroy();
  }
  return items.length;
}
