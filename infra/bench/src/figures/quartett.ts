/**
 * R4: the quartett print PDF at 70 cards (the confirmed vehicles) and at 1000 (every vehicle made
 * confirmed, through the status log), each export in a fresh child process.
 */
import type { EmbeddedS3 } from '@schlosstreffen/infra/dev-services';
import type { QuartettExportMeasure, QuartettExportTask } from '../children/quartett-export.js';
import { withDatabase } from '../seed.js';
import { DATA, databaseUrl, WORKER_PROCESS_ENV } from '../settings.js';
import { firstMessage, s3Settings, spawnScript } from '../stack.js';
import type { Figure } from '../stats.js';

async function exportSet(s3: EmbeddedS3, title: string): Promise<QuartettExportMeasure> {
  const setId = await withDatabase(async (db) => {
    const result = await db.query<{ id: string }>(
      `insert into quartett_set (id, title, created_at) values (gen_random_uuid(), $1, now()) returning id`,
      [title],
    );
    return result.rows[0]!.id;
  });
  const child = spawnScript('quartett-export', 'children/quartett-export.js', {
    ...process.env,
    ...WORKER_PROCESS_ENV,
    NODE_ENV: 'production',
  });
  const answer = firstMessage<QuartettExportMeasure>(child);
  const task: QuartettExportTask = { databaseUrl, s3: s3Settings(s3), setId };
  child.child.send(task);
  try {
    return await answer;
  } finally {
    await child.stop();
  }
}

/** Every vehicle becomes confirmed, each with its status event, as a reviewer's change would. */
const confirmAll = () =>
  withDatabase(async (db) => {
    await db.query('begin');
    await db.query(
      `insert into review (id, vehicle_id, actor_role, actor_name, old_status, new_status, created_at)
       select gen_random_uuid(), id, 'reviewer', 'Bench Reviewer', status, 'confirmed', now()
       from vehicle where status <> 'confirmed' order by created_at desc`,
    );
    await db.query(`update vehicle set status = 'confirmed', updated_at = now() where status <> 'confirmed'`);
    await db.query('commit');
    await db.query('analyze vehicle');
  });

export async function quartett(s3: EmbeddedS3): Promise<Figure[]> {
  const small = await exportSet(s3, 'Bench 70');
  await confirmAll();
  const large = await exportSet(s3, 'Bench 1000');
  if (small.cards !== DATA.confirmed || large.cards !== DATA.vehicles) {
    throw new Error(`exported ${small.cards} and ${large.cards} cards`);
  }
  const perCard = (measure: QuartettExportMeasure) => measure.ms / measure.cards;
  const mb = (measure: QuartettExportMeasure) => `${measure.maxRssMb.toFixed(0)} MB`;
  return [
    {
      name: 'r4.quartett.ms_per_card_70',
      value: perCard(small),
      unit: 'ms',
      reference: `${(small.ms / 1000).toFixed(1)} s for ${small.cards} cards, ${small.pages} pages, ${(small.bytes / 1024 / 1024).toFixed(1)} MB PDF`,
    },
    {
      name: 'r4.quartett.ms_per_card_1000',
      value: perCard(large),
      unit: 'ms',
      reference: `${(large.ms / 1000).toFixed(1)} s for ${large.cards} cards, ${large.pages} pages, ${(large.bytes / 1024 / 1024).toFixed(1)} MB PDF`,
    },
    {
      name: 'r4.quartett.linearity',
      value: perCard(large) / perCard(small),
      unit: 'x',
      budget: { op: '<=', limit: 1.2 },
      reference: 't(1000) / (t(70) × 1000/70)',
    },
    {
      name: 'r4.quartett.peak_rss',
      value: Math.max(small.maxRssMb, large.maxRssMb),
      unit: 'MB',
      budget: { op: '<', limit: 512 },
      reference: `70 cards ${mb(small)}, 1000 cards ${mb(large)} (VmHWM ${large.vmHwmMb?.toFixed(0) ?? '?'} MB)`,
    },
    {
      name: 'r4.quartett.max_block',
      value: Math.max(small.maxBlockMs, large.maxBlockMs),
      unit: 'ms',
      budget: { op: '<', limit: 200 },
      reference: `70 cards ${small.maxBlockMs.toFixed(0)} ms, 1000 cards ${large.maxBlockMs.toFixed(0)} ms (p99 ${large.p99BlockMs.toFixed(1)} ms)`,
    },
  ];
}
