import type { EntityManager } from '@mikro-orm/postgresql';
import type { JobName, JobPayload } from '@schlosstreffen/shared';
import { parseJobPayload } from '@schlosstreffen/shared';
import { Outbox } from './outbox.entity.js';

/**
 * Records a job in the outbox inside the caller's unit of work; it is committed with the change
 * that causes it and published by the relay afterwards.
 */
export function enqueue<N extends JobName>(em: EntityManager, job: N, payload: JobPayload<N>): Outbox {
  const checked = parseJobPayload(job, payload) as Record<string, unknown>;
  return em.create(Outbox, { job, payload: checked, publishedAt: null });
}
