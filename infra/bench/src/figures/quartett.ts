/**
 * R4: the quartett print PDF at 70 and at 1000 cards. R4 itself makes exactly that many vehicles
 * confirmed (through the status log, as a reviewer's change would), each with a clean hero image
 * whose 1280 px rendition it stores, whatever the seed holds. Their print photos are prepared first by the print photo job, as the
 * worker would have done when the photos were attached or cropped (reported, not timed with the
 * export); then each export runs in a fresh child process.
 */
import type { EmbeddedS3 } from '@schlosstreffen/infra/dev-services';
import type { PrintPhotoMeasure, QuartettExportMeasure, QuartettTask } from '../children/quartett-export.js';
import { makePhotos, storeHeroRenditions, withDatabase } from '../seed.js';
import { CORES, databaseUrl, WORKER_PROCESS_ENV } from '../settings.js';
import { firstMessage, s3Settings, spawnScript } from '../stack.js';
import { inReferenceUnits, type Figure, type Speed } from '../stats.js';

const SMALL = 70;
const LARGE = 1000;

async function runChild<T>(s3: EmbeddedS3, task: QuartettTask): Promise<T> {
  const child = spawnScript('quartett-export', 'children/quartett-export.js', {
    ...process.env,
    ...WORKER_PROCESS_ENV,
    NODE_ENV: 'production',
  });
  const answer = firstMessage<T>(child);
  child.child.send(task);
  try {
    return await answer;
  } finally {
    await child.stop();
  }
}

const settings = (s3: EmbeddedS3) => ({ databaseUrl, s3: s3Settings(s3) });

/** A clean hero (renditions written), and the owner did not withdraw the quartett consent. */
const PRINTABLE = `exists (select 1 from media m where m.vehicle_id = v.id and m.is_hero and m.type = 'image'
    and m.approval_status <> 'rejected' and m.upload_key is null and m.thumbnail_url is not null)
  and not exists (select 1 from consent c where c.vehicle_id = v.id and c.kind = 'quartett'
    and c.withdrawn_at is not null)`;

/**
 * Exactly `count` vehicles confirmed, each printable: confirmed printable ones stay first, then the
 * newest others; every other confirmed vehicle goes to the waitlist. Each change is a status event.
 * Returns the confirmed vehicles' ids.
 */
const confirmExactly = (count: number) =>
  withDatabase(async (db) => {
    await db.query('begin');
    const chosen = await db.query<{ id: string }>(
      `select v.id from vehicle v where ${PRINTABLE}
        order by (v.status = 'confirmed') desc, v.created_at desc, v.id limit $1`,
      [count],
    );
    if (chosen.rowCount !== count) {
      const stats = await db.query(
        `select count(*)::int as vehicles,
                count(*) filter (where exists (select 1 from media m where m.vehicle_id = v.id and m.is_hero))::int as with_hero,
                count(*) filter (where ${PRINTABLE})::int as printable
         from vehicle v`,
      );
      throw new Error(`${count} printable vehicles needed: ${JSON.stringify(stats.rows[0])}`);
    }
    const ids = chosen.rows.map((row) => row.id);
    const change = async (where: string, status: string) => {
      await db.query(
        `insert into review (id, vehicle_id, actor_role, actor_name, old_status, new_status, created_at)
         select gen_random_uuid(), id, 'reviewer', 'Bench Reviewer', status, $2, now()
         from vehicle where ${where}`,
        [ids, status],
      );
      await db.query(`update vehicle set status = $2, updated_at = now() where ${where}`, [ids, status]);
    };
    await change(`status = 'confirmed' and not (id = any($1::uuid[]))`, 'waitlist');
    await change(`status <> 'confirmed' and id = any($1::uuid[])`, 'confirmed');
    await db.query('commit');
    await db.query('analyze vehicle');
    return ids;
  });

async function exportSet(s3: EmbeddedS3, title: string): Promise<QuartettExportMeasure> {
  const setId = await withDatabase(async (db) => {
    const result = await db.query<{ id: string }>(
      `insert into quartett_set (id, edition_id, title, created_at)
       values (gen_random_uuid(), (select id from edition order by current_from desc nulls last, year desc limit 1), $1, now()) returning id`,
      [title],
    );
    return result.rows[0]!.id;
  });
  return runChild<QuartettExportMeasure>(s3, { ...settings(s3), kind: 'export', setId });
}

/**
 * The 1280 px renditions of the vehicles' heroes, which the print photo is made from: the seed
 * stores them only for the newest vehicles, and retention may have removed some of those.
 */
async function storeRenditions(s3: EmbeddedS3, vehicleIds: string[]): Promise<void> {
  const heroes = await withDatabase(async (db) => {
    const result = await db.query<{ mediaId: string }>(
      `select m.id as "mediaId" from media m where m.is_hero and m.vehicle_id = any($1::uuid[])`,
      [vehicleIds],
    );
    return result.rows;
  });
  await storeHeroRenditions(
    s3Settings(s3),
    await makePhotos(),
    heroes.map((hero) => ({ ...hero, confirmed: false })),
  );
}

/** The print photo job for each vehicle, as many at once as the worker's media queue runs. */
async function prepare(s3: EmbeddedS3, vehicleIds: string[]): Promise<PrintPhotoMeasure> {
  const measure = await runChild<PrintPhotoMeasure>(s3, {
    ...settings(s3),
    kind: 'prepare',
    vehicleIds,
    concurrency: CORES,
  });
  const printed = (measure.statuses.done ?? 0) + (measure.statuses.current ?? 0);
  if (printed !== vehicleIds.length) {
    throw new Error(`print photos of ${vehicleIds.length} vehicles: ${JSON.stringify(measure.statuses)}`);
  }
  return measure;
}

/** The budget of seconds is the reference machine's, scaled by `speed` (node:http's rate: the export is JavaScript on the CPU). */
export async function quartett(s3: EmbeddedS3, speed: Speed): Promise<Figure[]> {
  const smallIds = await confirmExactly(SMALL);
  await storeRenditions(s3, smallIds);
  const smallPrep = await prepare(s3, smallIds);
  const small = await exportSet(s3, `Bench ${SMALL}`);
  const largeIds = await confirmExactly(LARGE);
  await storeRenditions(s3, largeIds);
  const largePrep = await prepare(s3, largeIds);
  const large = await exportSet(s3, `Bench ${LARGE}`);
  if (small.cards !== SMALL || large.cards !== LARGE) {
    throw new Error(`exported ${small.cards} and ${large.cards} cards, expected ${SMALL} and ${LARGE}`);
  }
  if (small.preparedHere || large.preparedHere) {
    throw new Error(`${small.preparedHere} and ${large.preparedHere} photos were not prepared before`);
  }
  const perCard = (measure: QuartettExportMeasure) => measure.ms / measure.cards;
  const pdf = (measure: QuartettExportMeasure) =>
    `${measure.cards} cards, ${measure.pages} pages, ${(measure.bytes / 1024 / 1024).toFixed(1)} MB PDF`;
  const peak = (measure: QuartettExportMeasure) => {
    if (measure.vmHwmMb === null) throw new Error('no VmHWM in /proc/self/status');
    return measure.vmHwmMb;
  };
  const mb = (measure: QuartettExportMeasure) => `${peak(measure).toFixed(0)} MB`;
  const made = (measure: PrintPhotoMeasure) =>
    `${measure.statuses.done ?? 0} made, ${measure.statuses.current ?? 0} current`;
  return [
    inReferenceUnits(
      {
        name: 'r4.quartett.seconds_1000',
        value: large.ms / 1000,
        unit: 's',
        budget: { op: '<=', limit: 10 },
        reference: pdf(large),
      },
      speed,
    ),
    {
      name: 'r4.quartett.ms_per_card_70',
      value: perCard(small),
      unit: 'ms',
      reference: `${(small.ms / 1000).toFixed(2)} s for ${pdf(small)}`,
    },
    {
      name: 'r4.quartett.ms_per_card_1000',
      value: perCard(large),
      unit: 'ms',
      reference: `${(large.ms / 1000).toFixed(2)} s for ${pdf(large)}`,
    },
    {
      name: 'r4.quartett.linearity',
      value: perCard(large) / perCard(small),
      unit: 'x',
      budget: { op: '<=', limit: 1.1 },
      reference: `t(${LARGE}) / (t(${SMALL}) × ${LARGE}/${SMALL})`,
    },
    {
      name: 'r4.quartett.peak_rss',
      value: Math.max(peak(small), peak(large)),
      unit: 'MB',
      budget: { op: '<=', limit: 256 },
      reference: `VmHWM of the export process: ${SMALL} cards ${mb(small)}, ${LARGE} cards ${mb(large)} (getrusage maxRSS ${large.maxRssMb.toFixed(0)} MB counts the bench process it was started from)`,
    },
    {
      name: 'r4.quartett.max_block',
      value: Math.max(small.maxBlockMs, large.maxBlockMs),
      unit: 'ms',
      budget: { op: '<=', limit: 50 },
      reference: `${SMALL} cards ${small.maxBlockMs.toFixed(0)} ms, ${LARGE} cards ${large.maxBlockMs.toFixed(0)} ms (p99 ${large.p99BlockMs.toFixed(1)} ms)`,
    },
    {
      name: 'r4.quartett.print_photos',
      value: (smallPrep.ms + largePrep.ms) / 1000,
      unit: 's',
      reference: `print photo job before the exports, ${CORES} at once: ${SMALL} vehicles ${(smallPrep.ms / 1000).toFixed(1)} s (${made(smallPrep)}), ${LARGE} vehicles ${(largePrep.ms / 1000).toFixed(1)} s (${made(largePrep)})`,
    },
  ];
}
