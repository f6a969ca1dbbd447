import type { EntityManager } from '@mikro-orm/postgresql';
import { runDueWork, type ScheduleConfig } from '@schlosstreffen/api/core';
import type { JobHandler } from '../dispatch.js';

export interface TickDeps {
  em: EntityManager;
  config: ScheduleConfig;
  /** Wakes this process's outbox relay after work that queued side effects. */
  onOutbox?: () => void;
  /** The app's clock; the real time when absent. */
  now?: () => Date;
}

/** The scheduler's beat: runs everything that is due at the moment (now, or the payload's asOf). */
export function createTick(deps: TickDeps): JobHandler<'scheduler.tick'> {
  return async ({ asOf }) => {
    const report = await runDueWork(
      deps.em,
      deps.config,
      asOf ? new Date(asOf) : (deps.now?.() ?? new Date()),
    );
    deps.onOutbox?.();
    return report;
  };
}
