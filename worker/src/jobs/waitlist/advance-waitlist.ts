import type { EntityManager } from '@mikro-orm/postgresql';
import { advanceWaitlist, type EditionEvent } from '@schlosstreffen/api/core';
import type { JobHandler } from '../dispatch.js';

export interface AdvanceWaitlistDeps {
  em: EntityManager;
  /** The edition whose places these are. */
  event: EditionEvent;
  publicUrl: string;
  secret: string;
  /** Called after a commit that wrote outbox rows (wakes this process's relay). */
  onOutbox?: () => void;
  /** The app's clock; the real time when absent. */
  now?: () => Date;
}

/**
 * A place was given up: pass it on to the best-ranked waitlisted vehicle. Safe to run twice and
 * concurrently: under the places lock each given-up place is passed on once.
 */
export function createAdvanceWaitlist(deps: AdvanceWaitlistDeps): JobHandler<'waitlist.advance'> {
  return async () => {
    const report = await advanceWaitlist(
      deps.em,
      { event: deps.event, publicUrl: deps.publicUrl, secret: deps.secret },
      deps.now?.() ?? new Date(),
    );
    if (report.invited.length) deps.onOutbox?.();
    return report;
  };
}
