/**
 * R6: admins invite submitted vehicles (PATCH …/status with oldStatus) at a steady 20 per second,
 * each sent on its schedule whether or not the earlier ones were answered; for each, the clock runs
 * from the PATCH's answer until the invitation mail to its owner is in the mail catcher. The whole
 * path: api transaction with outbox row, relay, invitation.issue job (start number, zone, check-in
 * code), its outbox row, relay, email.send job (react-email with QR code), SMTP. One poller reads the
 * catcher's new mails every POLL_MS; at the end every owner must have exactly one invitation mail.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { CaughtMail } from '@schlosstreffen/infra/dev-services';
import { Client } from '../http.js';
import type { Seeded } from '../seed.js';
import { ADMIN } from '../settings.js';
import { percentile, type Figure } from '../stats.js';

const CHANGES = 100;
const PER_SECOND = 20;
const WARMUP = 3;
const POLL_MS = 10;
const TIMEOUT_MS = 60_000;

interface Change {
  email: string;
  sent: number;
  answered?: number;
  delivered?: number;
}

export async function statusMail(mailWebUrl: string, submitted: Seeded['submitted']): Promise<Figure[]> {
  if (submitted.length < CHANGES + WARMUP) throw new Error(`only ${submitted.length} submitted vehicles`);
  const admin = await new Client().login(ADMIN.email, ADMIN.password);
  const invite = async (vehicleId: string) =>
    admin.json('PATCH', `/api/admin/vehicles/${vehicleId}/status`, {
      status: 'invited',
      oldStatus: 'submitted',
    });

  let seen = 0;
  const delivered = new Map<string, number[]>();
  const poll = async () => {
    const response = await fetch(`${mailWebUrl}/email?skip=${seen}`);
    if (!response.ok) throw new Error(`mail catcher answered ${response.status}`);
    const mails = (await response.json()) as CaughtMail[];
    const now = performance.now();
    seen += mails.length;
    for (const mail of mails) {
      for (const to of mail.to) {
        if (!/Einladung/i.test(mail.subject)) continue;
        delivered.set(to.address, [...(delivered.get(to.address) ?? []), now]);
      }
    }
  };
  await poll();
  const waitFor = async (emails: string[]) => {
    const deadline = performance.now() + TIMEOUT_MS;
    while (emails.some((email) => !delivered.has(email))) {
      if (performance.now() > deadline) {
        throw new Error(`${emails.filter((email) => !delivered.has(email)).length} invitation mails missing`);
      }
      await sleep(POLL_MS);
      await poll();
    }
  };

  // Warm-up, one at a time.
  for (const vehicle of submitted.slice(0, WARMUP)) {
    await invite(vehicle.id);
    await waitFor([vehicle.email]);
  }

  const measured = submitted.slice(WARMUP, WARMUP + CHANGES);
  const changes: Change[] = [];
  let polling = true;
  const poller = (async () => {
    while (polling) {
      await poll();
      await sleep(POLL_MS);
    }
  })();
  const start = performance.now() + 50;
  const requests = measured.map(async (vehicle, index) => {
    await sleep(start + (index * 1000) / PER_SECOND - performance.now());
    const change: Change = { email: vehicle.email, sent: performance.now() };
    changes.push(change);
    await invite(vehicle.id);
    change.answered = performance.now();
  });
  try {
    await Promise.all(requests);
    const sendSeconds = (changes.at(-1)!.sent - changes[0]!.sent) / 1000;
    await waitFor(measured.map((vehicle) => vehicle.email));
    // Late doubles would show here.
    await sleep(500);
    await poll();
    const doubled = measured.filter((vehicle) => delivered.get(vehicle.email)!.length !== 1);
    if (doubled.length) throw new Error(`${doubled.length} owners got more than one invitation mail`);

    for (const change of changes) change.delivered = delivered.get(change.email)![0];
    const fromAnswer = changes.map((change) => change.delivered! - change.answered!);
    const fromSend = changes.map((change) => change.delivered! - change.sent);
    const answers = changes.map((change) => change.answered! - change.sent);
    const rate = ((changes.length - 1) / sendSeconds).toFixed(1);
    const p95 = percentile(fromAnswer, 95);
    return [
      {
        name: 'r6.status_to_inbox.p95',
        value: p95,
        unit: 'ms',
        budget: { op: '<=', limit: 250 },
        reference: `${CHANGES} invitations at ${rate}/s, from the PATCH's answer to the mail in the catcher; p50 ${percentile(fromAnswer, 50).toFixed(0)} ms, max ${Math.max(...fromAnswer).toFixed(0)} ms, polled every ${POLL_MS} ms`,
      },
      { name: 'r6.status_to_inbox.p50', value: percentile(fromAnswer, 50), unit: 'ms' },
      {
        name: 'r6.status_to_inbox.p95_from_send',
        value: percentile(fromSend, 95),
        unit: 'ms',
        reference: `PATCH answered in p50 ${percentile(answers, 50).toFixed(0)} ms, p95 ${percentile(answers, 95).toFixed(0)} ms`,
      },
    ];
  } finally {
    polling = false;
    await poller;
  }
}
