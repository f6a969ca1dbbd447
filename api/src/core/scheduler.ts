import type { EntityManager } from '@mikro-orm/postgresql';
import type { RetentionPeriods } from '@schlosstreffen/shared';
import { currentEdition } from './editions/editions.js';
import { eventOfEdition } from './editions/edition-events.js';
import { lapseDue, remindDue } from './invitations/deadline-sweeps.js';
import { releaseUnpaidDue, remindPaymentsDue } from './invitations/payment-deadlines.js';
import { allocateTickets } from './visitors/tickets.js';
import { ticketLinksOf } from './visitors/visitor.service.js';
import { advanceWaitlist, type AdvanceReport } from './invitations/waitlist.js';
import { runRetention, type RetentionReport } from './privacy/retention.js';
import { noticeNextEdition } from './visitors/next-edition-notices.js';
import { balanceAllEditions } from './reviews/reviews.js';
import { runAwardMoments } from './award/award.js';
import type { ReviewBalance } from '@schlosstreffen/shared/api';

/** What the date-dependent work needs to know. */
export interface ScheduleConfig {
  retention: RetentionPeriods;
  /** Base of links in mails (reminders). */
  publicUrl: string;
  /** Seals the links in mails. */
  secret: string;
}

export interface DueWorkReport {
  asOf: string;
  /** Reminder mails queued. */
  reminders: number;
  /** Vehicles whose invitation lapsed. */
  lapsed: string[];
  /** Reminders of an open participation fee queued. */
  paymentReminders: number;
  /** Vehicles released because their fee was not paid by its deadline. */
  unpaidReleased: string[];
  movedUp: AdvanceReport;
  /** Visitors given a ticket from the waiting list. */
  visitorsMovedUp: number;
  retention: RetentionReport;
  /** Mails to visitors of earlier editions about the current one. */
  nextEditionNotices: number;
  /** Reviews assigned, removed and moved (normally none: every change balances at once). */
  reviews: ReviewBalance;
  /** Years whose visitors' award voting opened or closed at its set moment (or the meeting's end). */
  award: { opened: number[]; closed: number[] };
}

/**
 * Everything that depends on the date, run for one moment: the worker's scheduler tick runs it
 * every few minutes, `npm run cli -- scheduler:tick --as-of <date>` at any moment. Each task is
 * idempotent: running the same moment twice changes nothing more. Order: reminders, lapses, the
 * participation fee's reminders and releases of unpaid cars, then
 * moving up into the places the lapses freed (in the edition current at that moment), the mails to
 * visitors of earlier editions who asked to hear about the current one, the visitors' award's
 * opening and closing (closed at the latest when its meeting ends), then retention
 * (counted from each edition's end).
 */
export async function runDueWork(
  em: EntityManager,
  config: ScheduleConfig,
  asOf: Date,
): Promise<DueWorkReport> {
  // The edition current at that moment: its zones, deadlines and end.
  const event = eventOfEdition(await currentEdition(em.fork(), asOf));
  const places = { event, publicUrl: config.publicUrl, secret: config.secret };
  const reminders = await remindDue(em, places, asOf);
  const lapsed = await lapseDue(em, places, asOf);
  const paymentReminders = await remindPaymentsDue(em, places, asOf);
  const unpaidReleased = await releaseUnpaidDue(em, places, asOf);
  const movedUp = await advanceWaitlist(em, places, asOf);
  // Visitor places: freed ones go to the waiting list, confirmations a job has not served yet get theirs.
  const visitorsMovedUp = await em
    .fork()
    .transactional((tx) =>
      allocateTickets(tx, event.edition.id, asOf, ticketLinksOf(config.publicUrl, config.secret)),
    );
  const nextEditionNotices = await noticeNextEdition(em, config, event, asOf);
  const award = await runAwardMoments(em, asOf);
  const retention = await runRetention(em, { asOf, periods: config.retention });
  const reviews = await em.fork().transactional((tx) => balanceAllEditions(tx, asOf));
  return {
    asOf: asOf.toISOString(),
    reminders,
    lapsed,
    paymentReminders,
    unpaidReleased,
    movedUp,
    visitorsMovedUp,
    retention,
    nextEditionNotices,
    reviews,
    award,
  };
}
