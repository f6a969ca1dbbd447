import { invitationConfirmUrl, issueInvitation, type EventConfig } from '@schlosstreffen/api/db';
import type { EntityManager } from '@mikro-orm/postgresql';
import { InvitationIssueJobSchema, parseJobPayload } from '@schlosstreffen/shared';
import { UnrecoverableError, type Job } from 'bullmq';
import * as v from 'valibot';
import { eventFacts } from '../emails/event-facts.js';
import type { FollowUps } from '../worker.js';

export interface InvitationProcessorDeps {
  em: EntityManager;
  event: EventConfig;
  publicUrl: string;
  secret: string;
  followUps: FollowUps;
}

export type InvitationResult =
  | { status: 'issued' | 'kept'; startNumber: number; parkingZone: string; mailJobId: string }
  | { status: 'skipped'; reason: string };

/**
 * One invited status event: issue (or keep) the vehicle's invitation, then queue its mail under a job
 * id derived from this job's, so a retried or re-delivered event queues, and sends, one mail.
 */
export function createInvitationProcessor(deps: InvitationProcessorDeps) {
  return async (job: Job): Promise<InvitationResult> => {
    if (!job.id) throw new UnrecoverableError('invitation job without id');
    const parsed = v.safeParse(InvitationIssueJobSchema, job.data);
    if (!parsed.success) throw new UnrecoverableError(`invalid invitation job: ${parsed.issues[0]?.message}`);

    const issued = await issueInvitation(deps.em, parsed.output.vehicleId, deps.event.parkingZones);
    if (!issued) return { status: 'skipped', reason: 'vehicle gone or no longer invited' };
    const { invitation, vehicle, owner } = issued;

    const mailJobId = `${job.id}-mail`;
    const mail = parseJobPayload('email.send', {
      template: 'invitation',
      to: owner.email,
      props: {
        firstName: owner.firstName,
        vehicleTitle: vehicle.name || `${vehicle.brand} ${vehicle.model}`,
        dashboardUrl: `${deps.publicUrl}/dashboard`,
        startNumber: invitation.startNumber,
        parkingZone: invitation.parkingZone,
        checkInCode: invitation.qrCode,
        ...eventFacts(deps.event),
        confirmUrl: invitationConfirmUrl(deps.publicUrl, deps.secret, invitation.id),
      },
    });
    await deps.followUps.email.add('email.send', mail, { jobId: mailJobId });
    return {
      status: issued.created ? 'issued' : 'kept',
      startNumber: invitation.startNumber,
      parkingZone: invitation.parkingZone,
      mailJobId,
    };
  };
}
