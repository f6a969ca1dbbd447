import { DeletionsHeldError } from '@schlosstreffen/api/core';
import { JOBS, type JobName, type JobPayload } from '@schlosstreffen/shared';
import { DelayedError, UnrecoverableError, type Job } from 'bullmq';
import * as v from 'valibot';

/** What a handler may know of the job it runs besides its payload. */
export interface JobContext {
  /** The job id: the outbox row id, stable across retries and re-deliveries. */
  id: string;
  updateProgress(percent: number): Promise<void>;
  /** No retry follows if this run fails (its attempts are used up); absent counts as not last. */
  lastAttempt?: boolean;
}

/** Runs one job of kind N with its payload already checked against the job catalogue. */
export type JobHandler<N extends JobName> = (payload: JobPayload<N>, job: JobContext) => Promise<unknown>;

export type JobHandlers = { [N in JobName]: JobHandler<N> };

/**
 * The one entry of every job: looks up the handler by the job's name and parses the payload with
 * the catalogue's schema first. An unknown name or a payload that does not fit can never succeed,
 * so it fails without retries. A job whose object deletions wait for a running backup goes back to
 * the delayed jobs and runs again later, without using up an attempt.
 */
export function dispatch(handlers: Partial<JobHandlers>): (job: Job, token?: string) => Promise<unknown> {
  return async (job, token) => {
    const name = job.name as JobName;
    const handler = handlers[name] as JobHandler<JobName> | undefined;
    if (!(name in JOBS) || !handler) throw new UnrecoverableError(`unknown job ${job.name}`);
    if (!job.id) throw new UnrecoverableError(`${name} job without id`);
    const parsed = v.safeParse(JOBS[name].payload, job.data);
    if (!parsed.success) {
      throw new UnrecoverableError(`invalid ${name} job: ${parsed.issues[0]?.message ?? 'payload'}`);
    }
    const context: JobContext = {
      id: job.id,
      updateProgress: (percent) => job.updateProgress(percent),
      // A job handed in without its options (a test's stand-in) is not known to be the last.
      lastAttempt: job.opts ? (job.attemptsMade ?? 0) + 1 >= (job.opts.attempts ?? 1) : false,
    };
    try {
      return await handler(parsed.output as JobPayload<JobName>, context);
    } catch (error) {
      if (!(error instanceof DeletionsHeldError) || !token) throw error;
      await job.moveToDelayed(Date.now() + error.retryInMs, token);
      throw new DelayedError();
    }
  };
}
