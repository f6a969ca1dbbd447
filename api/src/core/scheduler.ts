import type { EntityManager } from '@mikro-orm/postgresql';
import type { RetentionPeriods } from '@schlosstreffen/shared';
import type { EventConfig } from './config.js';
import { lapseDue, remindDue } from './invitations/deadline-sweeps.js';
import { advanceWaitlist, type AdvanceReport } from './invitations/waitlist.js';
import { runRetention, type RetentionReport } from './privacy/retention.js';

/** What the date-dependent work needs to know. */
export interface ScheduleConfig {
  retention: RetentionPeriods;
  event: EventConfig;
  /** Base of links in mails (reminders). */
  publicUrl: string;
  /** Seals the links in mails. */
  secret: string;
}

export interface DueWorkReport {
  asOf: string;
  /** Reminder mails queued. */
  reminders: number;
  /** Vehicles whose invitation lapsed. */
  lapsed: string[];
  movedUp: AdvanceReport;
  retention: RetentionReport;
}

/**
 * Everything that depends on the date, run for one moment: the worker's scheduler tick runs it
 * every few minutes, `npm run cli -- scheduler:tick --as-of <date>` at any moment. Each task is
 * idempotent: running the same moment twice changes nothing more. Order: reminders, lapses, then
 * moving up into the places the lapses freed, then retention.
 */
export async function runDueWork(
  em: EntityManager,
  config: ScheduleConfig,
  asOf: Date,
): Promise<DueWorkReport> {
  const places = { event: config.event, publicUrl: config.publicUrl, secret: config.secret };
  const reminders = await remindDue(em, places, asOf);
  const lapsed = await lapseDue(em, places, asOf);
  const movedUp = await advanceWaitlist(em, places, asOf);
  const retention = await runRetention(em, { asOf, periods: config.retention, eventEnd: config.event.end });
  return { asOf: asOf.toISOString(), reminders, lapsed, movedUp, retention };
}
