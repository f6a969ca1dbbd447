import type { EntityManager } from '@mikro-orm/postgresql';
import { issueInvitation, type EditionEvent } from '@schlosstreffen/api/core';
import type { JobHandler } from '../dispatch.js';

export interface IssueInvitationDeps {
  em: EntityManager;
  /** The edition whose places these are. */
  event: EditionEvent;
  publicUrl: string;
  secret: string;
  /** Called after a commit that wrote outbox rows (wakes this process's relay). */
  onOutbox?: () => void;
}

export type InvitationResult =
  | { status: 'issued' | 'kept'; startNumber: number; parkingZone: string; mailJobId: string | null }
  | { status: 'skipped'; reason: string };

/**
 * One invited status event: issue (or keep) the vehicle's invitation and queue its mail through the
 * outbox, in one transaction, under an id derived from this job's: a retried or re-delivered event
 * queues, and sends, one mail.
 */
export function createIssueInvitation(deps: IssueInvitationDeps): JobHandler<'invitation.issue'> {
  return async ({ vehicleId }, job): Promise<InvitationResult> => {
    const issued = await issueInvitation(deps.em, vehicleId, {
      event: deps.event,
      publicUrl: deps.publicUrl,
      secret: deps.secret,
      jobId: job.id,
    });
    if (!issued) return { status: 'skipped', reason: 'vehicle gone, or neither invited nor confirmed' };
    deps.onOutbox?.();
    return {
      status: issued.created ? 'issued' : 'kept',
      startNumber: issued.invitation.startNumber,
      parkingZone: issued.invitation.parkingZone,
      mailJobId: issued.mailJobId,
    };
  };
}
