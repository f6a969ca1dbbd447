/**
 * R6: an admin moves submitted vehicles to the waitlist (PATCH …/status with oldStatus) at a steady
 * 20 per second, each sent on its schedule whether or not the earlier ones were answered; for each,
 * the clock runs from the PATCH's answer until the status mail to its owner is in the mail catcher.
 * The whole path: api transaction with status event and outbox row, relay, email.send job
 * (react-email), SMTP. One poller reads the catcher's new mails every POLL_MS; at the end every
 * owner must have exactly one such mail.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { CaughtMail } from '@schlosstreffen/infra/dev-services';
import { Client } from '../http.js';
import { withDatabase, type Seeded } from '../seed.js';
import { withQueues } from '../queues.js';
import { ADMIN } from '../settings.js';
import { inReferenceUnits, percentile, type Figure, type Speed } from '../stats.js';

const CHANGES = 100;
const PER_SECOND = 20;
const WARMUP = 3;
const POLL_MS = 10;
const TIMEOUT_MS = 60_000;
const STATUS = 'waitlist';
const SUBJECT = /Warteliste/;

interface Change {
  vehicleId: string;
  email: string;
  sent: number;
  answered?: number;
  /** Wall clock (ms since the epoch), to compare with the database's and the queue's times. */
  answeredAt?: number;
  delivered?: number;
  deliveredAt?: number;
}

/** The p95 budget is the reference machine's, scaled by `speed` (node:http's rate). */
export async function statusMail(
  mailWebUrl: string,
  submitted: Seeded['submitted'],
  speed: Speed,
): Promise<Figure[]> {
  if (submitted.length < CHANGES + WARMUP) throw new Error(`only ${submitted.length} submitted vehicles`);
  const admin = await new Client().login(ADMIN.email, ADMIN.password);
  const change = async (vehicleId: string) =>
    admin.json('PATCH', `/api/admin/vehicles/${vehicleId}/status`, {
      status: STATUS,
      oldStatus: 'submitted',
    });

  let seen = 0;
  const delivered = new Map<string, number[]>();
  const deliveredAt = new Map<string, number>();
  // One read of the catcher at a time: two at once would both count the same new mails as seen.
  let polling: Promise<void> | undefined;
  const poll = () =>
    (polling ??= readNew().finally(() => {
      polling = undefined;
    }));
  const readNew = async () => {
    const response = await fetch(`${mailWebUrl}/email?skip=${seen}`);
    if (!response.ok) throw new Error(`mail catcher answered ${response.status}`);
    const mails = (await response.json()) as CaughtMail[];
    const now = performance.now();
    const wall = Date.now();
    seen += mails.length;
    for (const mail of mails) {
      for (const to of mail.to) {
        if (!SUBJECT.test(mail.subject)) continue;
        delivered.set(to.address, [...(delivered.get(to.address) ?? []), now]);
        deliveredAt.set(to.address, wall);
      }
    }
  };
  await poll();
  const waitFor = async (emails: string[]) => {
    const deadline = performance.now() + TIMEOUT_MS;
    while (emails.some((email) => !delivered.has(email))) {
      if (performance.now() > deadline) {
        throw new Error(
          `${emails.filter((email) => !delivered.has(email)).length} status mails missing; ${await backlog()}`,
        );
      }
      await sleep(POLL_MS);
      await poll();
    }
  };

  // Warm-up, one at a time.
  for (const vehicle of submitted.slice(0, WARMUP)) {
    await change(vehicle.id);
    await waitFor([vehicle.email]);
  }

  const measured = submitted.slice(WARMUP, WARMUP + CHANGES);
  const changes: Change[] = [];
  let watching = true;
  const poller = (async () => {
    while (watching) {
      await poll();
      await sleep(POLL_MS);
    }
  })();
  const start = performance.now() + 50;
  const requests = measured.map(async (vehicle, index) => {
    await sleep(start + (index * 1000) / PER_SECOND - performance.now());
    const item: Change = { vehicleId: vehicle.id, email: vehicle.email, sent: performance.now() };
    changes.push(item);
    await change(vehicle.id);
    item.answered = performance.now();
    item.answeredAt = Date.now();
  });
  try {
    await Promise.all(requests);
    const sendSeconds = (changes.at(-1)!.sent - changes[0]!.sent) / 1000;
    await waitFor(measured.map((vehicle) => vehicle.email));
    // Late doubles would show here.
    await sleep(500);
    await poll();
    const doubled = measured.filter((vehicle) => delivered.get(vehicle.email)!.length !== 1);
    if (doubled.length) throw new Error(`${doubled.length} owners got more than one status mail`);

    for (const change of changes) {
      change.delivered = delivered.get(change.email)![0];
      change.deliveredAt = deliveredAt.get(change.email);
    }
    const fromAnswer = changes.map((change) => change.delivered! - change.answered!);
    const fromSend = changes.map((change) => change.delivered! - change.sent);
    const answers = changes.map((change) => change.answered! - change.sent);
    const rate = ((changes.length - 1) / sendSeconds).toFixed(1);
    const p95 = percentile(fromAnswer, 95);
    return [
      inReferenceUnits(
        {
          name: 'r6.status_to_inbox.p95',
          value: p95,
          unit: 'ms',
          budget: { op: '<=', limit: 250 },
          reference: `${CHANGES} status changes (submitted → ${STATUS}) at ${rate}/s, from the PATCH's answer to the mail in the catcher; p50 ${percentile(fromAnswer, 50).toFixed(0)} ms, max ${Math.max(...fromAnswer).toFixed(0)} ms, polled every ${POLL_MS} ms`,
        },
        speed,
      ),
      {
        name: 'r6.status_to_inbox.p50',
        value: percentile(fromAnswer, 50),
        unit: 'ms',
        reference: `p50/p95 ms: ${await stages(changes)}`,
      },
      {
        name: 'r6.status_to_inbox.p95_from_send',
        value: percentile(fromSend, 95),
        unit: 'ms',
        reference: `PATCH answered in p50 ${percentile(answers, 50).toFixed(0)} ms, p95 ${percentile(answers, 95).toFixed(0)} ms`,
      },
    ];
  } finally {
    watching = false;
    await poller;
  }
}

/** Outbox rows and jobs still under way, for the error when mails are missing. */
async function backlog(): Promise<string> {
  const { rows } = await withDatabase((db) =>
    db.query<{ job: string; n: number }>(
      'select job, count(*)::int as n from outbox where published_at is null group by job',
    ),
  );
  return withQueues(async (queues) => {
    const counts = await Promise.all(
      (['email'] as const).map(
        async (name) => `${name} ${JSON.stringify(await queues[name].getJobCounts())}`,
      ),
    );
    return `unpublished outbox rows ${JSON.stringify(rows)}; ${counts.join('; ')}`;
  });
}

/**
 * Where the time goes, p50/p95 per step in ms: the api's relay (answer → mail job published), the
 * mail job's wait in the queue and its run (render and SMTP), and the catcher (job finished → seen
 * by the poller).
 */
async function stages(changes: Change[]): Promise<string> {
  const { rows } = await withDatabase((db) =>
    db.query<{ email: string; mail: string; published: Date }>(
      `select payload->>'to' as email, id as mail, published_at as published from outbox
        where job = 'email.send' and payload->>'to' = any($1::text[])`,
      [changes.map((change) => change.email)],
    ),
  );
  return withQueues(async (queues) => {
    const steps: Record<string, number[]> = { relay: [], queue: [], job: [], catcher: [] };
    const byEmail = new Map(changes.map((change) => [change.email, change]));
    for (const row of rows) {
      const change = byEmail.get(row.email);
      const job = await queues.email.getJob(row.mail);
      if (!change?.answeredAt || !change.deliveredAt || !job?.processedOn || !job.finishedOn) continue;
      steps.relay!.push(row.published.getTime() - change.answeredAt);
      steps.queue!.push(job.processedOn - row.published.getTime());
      steps.job!.push(job.finishedOn - job.processedOn);
      steps.catcher!.push(change.deliveredAt - job.finishedOn);
    }
    return Object.entries(steps)
      .filter(([, values]) => values.length)
      .map(
        ([name, values]) =>
          `${name} ${percentile(values, 50).toFixed(0)}/${percentile(values, 95).toFixed(0)}`,
      )
      .join(', ');
  });
}
