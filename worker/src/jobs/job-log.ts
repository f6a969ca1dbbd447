import { logger, requestIdOf, withLogContext } from '@schlosstreffen/api/core';
import { DelayedError, UnrecoverableError, WaitingChildrenError, type Job } from 'bullmq';

type Processor = (job: Job, token?: string) => Promise<unknown>;

/** Failures this module logged already, so the worker's `failed` event does not log them twice. */
const logged = new WeakSet<object>();

/** Whether the failure was logged with its job (a stalled job's failure was not). */
export const failureLogged = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && logged.has(error);

/**
 * Runs every job with one log line at its end ('job done', 'job failed') naming the job, its id,
 * the attempt, its duration and outcome (`status` of the handler's result, never its data); the
 * line, every line the handler writes and every outbox row it queues carry the `requestId` the job
 * came with (the request that queued it, or the job before it), else the job's own id.
 */
export function withJobLog(run: Processor): Processor {
  return (job, token) => {
    const given = (job.data as { requestId?: unknown } | undefined)?.requestId;
    const requestId = requestIdOf(typeof given === 'string' ? given : job.id);
    return withLogContext({ requestId }, async () => {
      const started = performance.now();
      const fields = () => ({
        job: job.name,
        jobId: job.id,
        attempt: (job.attemptsMade ?? 0) + 1,
        durationMs: Math.round((performance.now() - started) * 10) / 10,
      });
      try {
        const result = await run(job, token);
        const status = (result as { status?: unknown } | undefined)?.status;
        logger.info({ ...fields(), outcome: typeof status === 'string' ? status : undefined }, 'job done');
        return result;
      } catch (error) {
        if (error instanceof DelayedError || error instanceof WaitingChildrenError) {
          logger.info(fields(), 'job put back');
          throw error;
        }
        const last =
          error instanceof UnrecoverableError || (job.attemptsMade ?? 0) + 1 >= (job.opts?.attempts ?? 1);
        // A failure that is retried is a warning; the last one an error.
        logger[last ? 'error' : 'warn']({ ...fields(), last, err: error }, 'job failed');
        if (typeof error === 'object' && error !== null) logged.add(error);
        throw error;
      }
    });
  };
}
