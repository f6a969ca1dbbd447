import type { EventConfig } from '../config.js';

const DAY_MS = 24 * 3600 * 1000;

type DeadlineEvent = Pick<EventConfig, 'start' | 'invitations'>;

/** The moment after which no place is given by moving up and no confirm-by date lies later. */
export const cutoffOf = (event: DeadlineEvent): Date =>
  new Date(event.start.getTime() - event.invitations.cutoffDays * DAY_MS);

/**
 * An invitation's confirm-by date: `confirmDays` after it was issued, never later than the cut-off
 * before the event. One issued after the cut-off (an admin's late invitation) has none: it holds
 * its place until the event.
 */
export function confirmByFor(issuedAt: Date, event: DeadlineEvent): Date | null {
  const cutoff = cutoffOf(event);
  if (issuedAt.getTime() >= cutoff.getTime()) return null;
  return new Date(Math.min(issuedAt.getTime() + event.invitations.confirmDays * DAY_MS, cutoff.getTime()));
}

/** When the reminder is due; null when there is none (switched off, or the period is shorter than its lead). */
export function reminderAt(
  invitation: { issuedAt: Date; confirmBy?: Date | null },
  event: DeadlineEvent,
): Date | null {
  const days = event.invitations.reminderDays;
  if (!invitation.confirmBy || days <= 0) return null;
  const at = new Date(invitation.confirmBy.getTime() - days * DAY_MS);
  return at.getTime() > invitation.issuedAt.getTime() ? at : null;
}
