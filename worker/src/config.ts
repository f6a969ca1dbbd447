import {
  ConfigError,
  journalStoreOf,
  loadBackupStorage,
  loadCommonConfig,
  type CommonConfig,
  type ErasureJournalStore,
} from '@schlosstreffen/api/core';
import * as v from 'valibot';

const WorkerEnvSchema = v.object({
  SMTP_URL: v.optional(v.pipe(v.string(), v.url())),
  MAIL_FROM: v.optional(v.string(), 'Schlosstreffen <noreply@schlosstreffen.local>'),
  WORKER_CONCURRENCY: v.optional(v.pipe(v.string(), v.transform(Number), v.integer(), v.minValue(1)), '4'),
  /** Mails per second when sending a visitor update (Besucher-Updates). */
  VISITOR_UPDATE_RATE: v.optional(
    v.pipe(v.string(), v.transform(Number), v.number(), v.minValue(0.1), v.maxValue(1000)),
    '10',
  ),
  /** Minutes between two runs of the scheduler's tick (retention, deadlines); 0 turns it off. */
  SCHEDULER_TICK_MINUTES: v.optional(
    v.pipe(v.string(), v.transform(Number), v.integer(), v.minValue(0)),
    '10',
  ),
  /** Where each worker process serves its metrics while METRICS_TOKEN is set. */
  WORKER_METRICS_PORT: v.optional(
    v.pipe(v.string(), v.transform(Number), v.integer(), v.minValue(1), v.maxValue(65535)),
    '9464',
  ),
  /** Where each worker process answers GET /healthz (always open, no token): the probes' port. */
  WORKER_HEALTH_PORT: v.optional(
    v.pipe(v.string(), v.transform(Number), v.integer(), v.minValue(1), v.maxValue(65535)),
    '9465',
  ),
});

export interface WorkerConfig extends CommonConfig {
  smtpUrl: string;
  mailFrom: string;
  concurrency: number;
  /** Undefined when the tick is off. */
  tickEveryMs: number | undefined;
  visitorUpdateRate: number;
  /** The port of this process's metrics (WORKER_METRICS_PORT); served only with METRICS_TOKEN set. */
  metricsPort: number;
  /** The port of this process's health endpoint (WORKER_HEALTH_PORT). */
  healthPort: number;
  /**
   * The erasure journal in shared storage: the second bucket (BACKUP_S3_*), else in development
   * the backup directory (BACKUP_DIR); undefined without either.
   */
  journal: ErasureJournalStore | undefined;
}

export function loadWorkerConfig(env: Record<string, string | undefined> = process.env): WorkerConfig {
  const common = loadCommonConfig(env);
  const result = v.safeParse(WorkerEnvSchema, env);
  if (!result.success) {
    throw new ConfigError(`Invalid configuration: ${result.issues.map((i) => i.message).join('; ')}`);
  }
  const e = result.output;
  if (!e.SMTP_URL) {
    throw new ConfigError(
      common.isProduction
        ? 'Missing configuration: SMTP_URL. NODE_ENV=production turns the embedded defaults off.'
        : 'Missing configuration: SMTP_URL. Start with `npm start`, which runs the embedded mail catcher, or set it.',
    );
  }
  if (common.isProduction && !env.MAIL_FROM) throw new ConfigError('Missing configuration: MAIL_FROM.');
  if (e.WORKER_HEALTH_PORT === e.WORKER_METRICS_PORT) {
    throw new ConfigError('Invalid configuration: WORKER_HEALTH_PORT and WORKER_METRICS_PORT must differ.');
  }
  return {
    ...common,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    concurrency: e.WORKER_CONCURRENCY,
    tickEveryMs: e.SCHEDULER_TICK_MINUTES ? e.SCHEDULER_TICK_MINUTES * 60_000 : undefined,
    visitorUpdateRate: e.VISITOR_UPDATE_RATE,
    metricsPort: e.WORKER_METRICS_PORT,
    healthPort: e.WORKER_HEALTH_PORT,
    journal: journalStoreOf(loadBackupStorage(env)),
  };
}
