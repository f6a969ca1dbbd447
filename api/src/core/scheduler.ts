import type { EntityManager } from '@mikro-orm/postgresql';
import type { RetentionPeriods } from '@schlosstreffen/shared';
import { runRetention, type RetentionReport } from './privacy/retention.js';

/** What the date-dependent work needs to know. */
export interface ScheduleConfig {
  retention: RetentionPeriods;
  eventEnd: Date;
}

export interface DueWorkReport {
  asOf: string;
  retention: RetentionReport;
}

/**
 * Everything that depends on the date, run for one moment: the worker's scheduler tick runs it
 * every few minutes, `npm run cli -- scheduler:tick --as-of <date>` at any moment. Each task is
 * idempotent: running the same moment twice changes nothing more.
 */
export async function runDueWork(
  em: EntityManager,
  config: ScheduleConfig,
  asOf: Date,
): Promise<DueWorkReport> {
  const retention = await runRetention(em, { asOf, periods: config.retention, eventEnd: config.eventEnd });
  return { asOf: asOf.toISOString(), retention };
}
