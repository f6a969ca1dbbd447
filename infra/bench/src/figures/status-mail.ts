/**
 * R6: an admin invites a submitted vehicle (PATCH …/status with oldStatus); the clock runs until
 * the invitation mail to its owner is in the mail catcher. The whole path: api transaction with
 * outbox row, relay, invitation.issue job (start number, zone, check-in code), email.send job
 * (react-email with QR code), SMTP. Sequential, 50 distinct vehicles after 3 warm-up invitations.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { CaughtMail } from '@schlosstreffen/infra/dev-services';
import { Client } from '../http.js';
import type { Seeded } from '../seed.js';
import { ADMIN } from '../settings.js';
import { percentile, type Figure } from '../stats.js';

const CHANGES = 50;
const WARMUP = 3;
const POLL_MS = 25;
const TIMEOUT_MS = 30_000;

export async function statusMail(mailWebUrl: string, submitted: Seeded['submitted']): Promise<Figure[]> {
  if (submitted.length < CHANGES + WARMUP) throw new Error(`only ${submitted.length} submitted vehicles`);
  const admin = await new Client().login(ADMIN.email, ADMIN.password);
  const mails = async (skip: number) => {
    const response = await fetch(`${mailWebUrl}/email?skip=${skip}`);
    if (!response.ok) throw new Error(`mail catcher answered ${response.status}`);
    return (await response.json()) as CaughtMail[];
  };
  let seen = (await mails(0)).length;

  const samples: number[] = [];
  for (const [index, vehicle] of submitted.slice(0, CHANGES + WARMUP).entries()) {
    const started = performance.now();
    await admin.json('PATCH', `/api/admin/vehicles/${vehicle.id}/status`, {
      status: 'invited',
      oldStatus: 'submitted',
    });
    for (;;) {
      const fresh = await mails(seen);
      const mail = fresh.find((item) => item.to.some((to) => to.address === vehicle.email));
      if (mail) {
        if (!/Einladung/i.test(mail.subject)) throw new Error(`unexpected mail "${mail.subject}"`);
        if (index >= WARMUP) samples.push(performance.now() - started);
        seen += fresh.length;
        break;
      }
      if (performance.now() - started > TIMEOUT_MS)
        throw new Error(`no invitation mail for ${vehicle.email}`);
      await sleep(POLL_MS);
    }
  }
  const p95 = percentile(samples, 95);
  return [
    {
      name: 'r6.status_to_inbox.p95',
      value: p95,
      unit: 'ms',
      budget: { op: '<', limit: 2000 },
      reference: `${CHANGES} invitations, p50 ${percentile(samples, 50).toFixed(0)} ms, max ${Math.max(...samples).toFixed(0)} ms, polled every ${POLL_MS} ms`,
    },
    { name: 'r6.status_to_inbox.p50', value: percentile(samples, 50), unit: 'ms' },
  ];
}
