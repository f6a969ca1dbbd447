import type { Queue } from 'bullmq';
import type { JobHandler } from '../dispatch.js';

export interface EraseJobsDeps {
  queues: Queue[];
}

/**
 * Removes the jobs of a deleted person from every queue (waiting, delayed, finished or failed ones
 * keep their data in Redis). A job that is running right now cannot be removed: the handler then
 * fails, and BullMQ retries it after the running one ended. Removing a job that is gone is a no-op.
 */
export function createEraseJobs(deps: EraseJobsDeps): JobHandler<'privacy.erase-jobs'> {
  return async ({ jobIds }) => {
    let removed = 0;
    for (const queue of deps.queues) {
      for (const jobId of jobIds) removed += await queue.remove(jobId);
    }
    return { status: 'done', removed };
  };
}
