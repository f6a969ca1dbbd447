/**
 * What must hold after a scenario, checked against the deployment's database, its S3, its mail
 * catcher and the CLI, never against what the suite believes it did.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { HeadObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { createS3Client, type S3Config } from '@schlosstreffen/api/core';
import { listMails } from '@schlosstreffen/infra/dev-services';
import { THUMBNAIL_WIDTHS } from '@schlosstreffen/shared';
import { ROOT } from '../settings.js';
import type { Tally } from './client.js';
import type { Deployment } from './deployment.js';

const run = promisify(execFile);

/** The mail each status event sends (the invitation mail comes from the invitation job). */
const MAIL_OF_STATUS: Record<string, string> = {
  submitted: 'application-received',
  waitlist: 'application-waitlist',
  confirmed: 'application-confirmed',
  rejected: 'application-rejected',
  invited: 'invitation',
};

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

export interface MailFigures {
  mails: number;
  redelivered: number;
}

/**
 * Every status event has exactly one mail of its kind in the deployment's catcher (told apart by
 * Message-ID, which is the job's id), and every mail there belongs to this deployment.
 */
export async function checkMails(
  deployment: Pick<Deployment, 'query' | 'mailWebUrl'>,
): Promise<Check & MailFigures> {
  const expected = new Map<string, number>();
  const events = await deployment.query<{ email: string; new_status: string; n: string }>(
    `select u.email, r.new_status, count(*) as n
       from review r join vehicle v on v.id = r.vehicle_id join users u on u.id = v.user_id
      where r.kind = 'status' group by 1, 2`,
  );
  for (const event of events) {
    const template = MAIL_OF_STATUS[event.new_status];
    if (template)
      expected.set(
        `${event.email} ${template}`,
        (expected.get(`${event.email} ${template}`) ?? 0) + Number(event.n),
      );
  }
  const jobs = new Map(
    (
      await deployment.query<{ id: string; template: string; recipient: string }>(
        `select id, payload->>'template' as template, payload->>'to' as recipient from outbox where job = 'email.send'`,
      )
    ).map((row) => [row.id, row]),
  );
  const mails = await listMails(deployment.mailWebUrl);
  const seen = new Map<string, number>();
  const foreign: string[] = [];
  for (const mail of mails) {
    const jobId = /<([^@>]+)@schlosstreffen>/.exec(mail.headers?.['message-id'] ?? '')?.[1];
    const job = jobId ? jobs.get(jobId) : undefined;
    if (!job) {
      foreign.push(`"${mail.subject}" to ${mail.to.map((to) => to.address).join(', ')}`);
      continue;
    }
    seen.set(jobId!, (seen.get(jobId!) ?? 0) + 1);
  }
  const actual = new Map<string, number>();
  for (const jobId of seen.keys()) {
    const job = jobs.get(jobId)!;
    actual.set(`${job.recipient} ${job.template}`, (actual.get(`${job.recipient} ${job.template}`) ?? 0) + 1);
  }
  const wrong: string[] = [];
  for (const [key, count] of expected) {
    const got = actual.get(key) ?? 0;
    if (got !== count) wrong.push(`${key}: ${got} instead of ${count}`);
  }
  for (const [key, count] of actual) {
    if (!expected.has(key) && MAIL_OF_STATUS_VALUES.has(key.split(' ')[1]!))
      wrong.push(`${key}: ${count} without a status event`);
  }
  const redelivered = [...seen.values()].reduce((sum, n) => sum + n - 1, 0);
  const statusMails = [...expected.values()].reduce((sum, n) => sum + n, 0);
  const problems = [
    ...wrong.slice(0, 5),
    ...(foreign.length ? [`${foreign.length} foreign: ${foreign.slice(0, 3).join('; ')}`] : []),
  ];
  return {
    name: 'one mail per status event',
    ok: wrong.length === 0 && foreign.length === 0,
    detail: problems.length ? problems.join('; ') : `${statusMails} status mails as expected`,
    mails: mails.length,
    redelivered,
  };
}

const MAIL_OF_STATUS_VALUES = new Set(Object.values(MAIL_OF_STATUS));

/** Every invited or confirmed vehicle has exactly one invitation; no start number twice; held places fit the zones. */
export async function checkInvitations(
  deployment: Deployment,
  zones: Record<string, number>,
): Promise<Check> {
  const [missing] = await deployment.query<{ n: string }>(
    `select count(*) as n from vehicle v where v.status in ('invited', 'confirmed')
        and not exists (select 1 from invitation i where i.vehicle_id = v.id)`,
  );
  const doubled = await deployment.query<{ n: string }>(
    `select count(*) as n from (select vehicle_id from invitation group by 1 having count(*) > 1) d
     union all select count(*) from (select start_number from invitation group by 1 having count(*) > 1) s`,
  );
  const perZone = await deployment.query<{ zone: string; n: string }>(
    `select i.parking_zone as zone, count(*) as n from invitation i join vehicle v on v.id = i.vehicle_id
      where v.status in ('invited', 'confirmed') and i.released_at is null group by 1`,
  );
  const over = perZone.filter((row) => Number(row.n) > (zones[row.zone] ?? Infinity));
  const [total] = await deployment.query<{ n: string }>('select count(*) as n from invitation');
  const problems = [
    Number(missing?.n) ? `${missing!.n} invited vehicles without invitation` : '',
    Number(doubled[0]?.n) ? `${doubled[0]!.n} vehicles with two invitations` : '',
    Number(doubled[1]?.n) ? `${doubled[1]!.n} start numbers twice` : '',
    over.length ? `zones over capacity: ${over.map((row) => `${row.zone} ${row.n}`).join(', ')}` : '',
  ].filter(Boolean);
  return {
    name: 'one invitation and start number each',
    ok: problems.length === 0,
    detail: problems.length ? problems.join('; ') : `${total?.n} invitations, start numbers unique`,
  };
}

function s3Of(deployment: Deployment) {
  const config: S3Config = {
    endpoint: deployment.s3.endpoint,
    publicEndpoint: deployment.s3.endpoint,
    region: deployment.s3.region,
    bucket: deployment.s3.bucket,
    accessKeyId: deployment.s3.accessKeyId,
    secretAccessKey: deployment.s3.secretAccessKey,
    forcePathStyle: true,
  };
  return createS3Client(config);
}

/** Every attached image has its clean copy and renditions, and no upload is left behind. */
export async function checkRenditions(deployment: Deployment): Promise<Check> {
  const media = await deployment.query<{
    id: string;
    url: string;
    upload_key: string | null;
    thumbnail_url: string | null;
  }>(`select id, url, upload_key, thumbnail_url from media where approval_status <> 'rejected'`);
  const s3 = s3Of(deployment);
  const missing: string[] = [];
  try {
    for (const row of media) {
      if (row.upload_key || !row.thumbnail_url) {
        missing.push(`${row.id} not processed`);
        continue;
      }
      const keys = [
        row.url.replace('/objects/', ''),
        ...THUMBNAIL_WIDTHS.map((width) => `thumbs/${row.id}/${width}.webp`),
      ];
      for (const key of keys) {
        await s3
          .send(new HeadObjectCommand({ Bucket: deployment.s3.bucket, Key: key }))
          .catch(() => missing.push(key));
      }
    }
  } finally {
    s3.destroy();
  }
  return {
    name: 'renditions of every image',
    ok: missing.length === 0,
    detail: missing.length
      ? `${missing.length} missing: ${missing.slice(0, 3).join(', ')}`
      : `${media.length} images complete`,
  };
}

/** Every export finished or failed visibly, and a ready one has exactly one PDF. */
export async function checkExports(deployment: Deployment): Promise<Check> {
  const sets = await deployment.query<{
    id: string;
    version: number;
    status: string;
    export_file_url: string | null;
  }>('select id, version, status, export_file_url from quartett_set');
  const s3 = s3Of(deployment);
  let pdfs: string[];
  try {
    const listed = await s3.send(
      new ListObjectsV2Command({ Bucket: deployment.s3.bucket, Prefix: 'exports/quartett/' }),
    );
    pdfs = (listed.Contents ?? []).map((object) => object.Key!);
  } finally {
    s3.destroy();
  }
  const problems: string[] = [];
  for (const set of sets) {
    if (set.status !== 'ready' && set.status !== 'failed')
      problems.push(`v${set.version} still ${set.status}`);
    const own = pdfs.filter((key) => key.includes(set.id));
    if (set.status === 'ready' && (own.length !== 1 || !set.export_file_url?.endsWith(own[0]!))) {
      problems.push(`v${set.version}: ${own.length} PDFs`);
    }
  }
  const states = sets.map((set) => set.status).join(', ') || 'none';
  return {
    name: 'exports finished, one PDF each',
    ok: problems.length === 0,
    detail: problems.length ? problems.join('; ') : `${sets.length} sets (${states}), ${pdfs.length} PDFs`,
  };
}

/** `projections:rebuild --verify` of the CLI: the status log replays onto the projections. */
export async function checkReplay(deployment: Deployment): Promise<Check> {
  try {
    const { stdout } = await run(
      process.execPath,
      ['api/dist/cli/cli.js', 'projections:rebuild', '--verify'],
      {
        cwd: ROOT,
        env: deployment.env,
      },
    );
    return { name: 'status log replays', ok: true, detail: stdout.trim().split('\n').at(-1) ?? 'ok' };
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    return {
      name: 'status log replays',
      ok: false,
      detail: `${failed.stdout ?? ''}${failed.stderr ?? ''}`.trim().slice(0, 300),
    };
  }
}

/** No request waited past its timeout. */
export function checkNoHang(tally: Tally): Check {
  return {
    name: 'no request hung',
    ok: tally.hung === 0,
    detail: `${tally.total} requests (${tally.toString()}), slowest ${(tally.maxMs / 1000).toFixed(1)} s`,
  };
}

/** The checks every scenario ends with. */
export async function standardChecks(
  deployment: Deployment,
  tally: Tally,
  zones: Record<string, number>,
): Promise<Check[]> {
  return [
    await checkMails(deployment),
    await checkInvitations(deployment, zones),
    await checkRenditions(deployment),
    await checkExports(deployment),
    await checkReplay(deployment),
    checkNoHang(tally),
  ];
}
