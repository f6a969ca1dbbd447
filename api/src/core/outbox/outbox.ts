import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { JobName, JobPayload } from '@schlosstreffen/shared';
import { parseJobPayload } from '@schlosstreffen/shared';
import { currentRequestId } from '../logger.js';
import { Outbox } from '../model/outbox.entity.js';

/**
 * Records a job in the outbox inside the caller's unit of work; it is committed with the change
 * that causes it and published by the relay afterwards, with the row id as job id. It keeps the id of
 * the request (or job) running now, which the job's log lines carry.
 */
export function enqueue<N extends JobName>(
  em: EntityManager,
  job: N,
  payload: JobPayload<N>,
  options: { id?: string } = {},
): Outbox {
  const checked = parseJobPayload(job, payload) as Record<string, unknown>;
  return em.create(Outbox, {
    ...(options.id ? { id: options.id } : {}),
    job,
    payload: checked,
    publishedAt: null,
    requestId: currentRequestId() ?? null,
  });
}

/** A stable uuid for what a job causes (e.g. its mail), so a retried job queues it only once. */
export function followUpId(jobId: string, what: string): string {
  const hex = createHash('sha256').update(`${jobId}\0${what}`).digest('hex');
  // A version-5-shaped uuid (name based): stable for the same job and purpose.
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * Queues a job caused by another one under a stable id: when the causing job runs again, the row
 * is found and nothing is queued twice. Call it in a transaction that serialises such runs (e.g.
 * one that locks the subject's row). Returns the row id.
 */
export async function enqueueFollowUp<N extends JobName>(
  em: EntityManager,
  cause: { jobId: string; what: string },
  job: N,
  payload: JobPayload<N>,
): Promise<string> {
  const id = followUpId(cause.jobId, cause.what);
  if (!(await em.count(Outbox, { id }))) enqueue(em, job, payload, { id });
  return id;
}
