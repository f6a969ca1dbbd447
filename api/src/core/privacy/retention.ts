import type { EntityManager } from '@mikro-orm/postgresql';
import type { RetentionPeriods } from '@schlosstreffen/shared';
import { DataExport } from '../model/data-export.entity.js';
import { Upload } from '../model/upload.entity.js';
import { EmailLog } from '../model/email-log.entity.js';
import { MailBounce } from '../model/mail-bounce.entity.js';
import { Media } from '../model/media.entity.js';
import { Outbox } from '../model/outbox.entity.js';
import { enqueue, enqueueFollowUp } from '../outbox/outbox.js';
import { UPLOAD_URL_SECONDS } from '../media/upload.service.js';
import { QuartettSet } from '../model/quartett-set.entity.js';
import { keyOf, mediaObjectKeys } from '../storage/objects.js';
import { Edition } from '../model/edition.entity.js';
import { Vehicle } from '../model/vehicle.entity.js';
import { VisitorRegistration } from '../model/visitor-registration.entity.js';
import { AwardVote, AwardVoter } from '../model/award.entity.js';
import { JuryClass, JuryInvite, JuryRecusal, JuryScore } from '../model/jury.entity.js';
import { RetentionRun } from '../model/retention-run.entity.js';
import { deleteAuditRowsBefore } from '../audit/audit.queries.js';
import {
  clearExpiredConfirmTokens,
  clearExpiredEmailChanges,
  clearExpiredResetTokens,
  deleteGateScans,
  deleteSessionsExpiredBy,
  unattachedUploadKeys,
} from './privacy.queries.js';
import { journalErasure } from '../outbox/erasure-journal.js';
import { pruneStoredJournalRows } from '../outbox/outbox.queries.js';
import { pruneUnassignedLines } from '../payments/payments.queries.js';

const HOUR = 3600 * 1000;
/** Journal rows in shared storage stay this long in the database (a restore compares the last day's). */
export const ERASURE_JOURNAL_ROW_DAYS = 30;
const DAY = 24 * HOUR;

export interface RetentionOptions {
  /** The moment ages are judged against: now, or another for trying it out (`--as-of`). */
  asOf: Date;
  periods: RetentionPeriods;
}

/** What one run removed, per rule (plus expired reset, confirmation and email change tokens and old runs). */
export type RetentionReport = Record<string, number>;

/**
 * Removes what its period says is due at `asOf`, and nothing else, in one transaction; periods 'after
 * the event' count from the end of each edition and remove that edition's rows only. Stored
 * objects go through the outbox, and once an hour a sweep removes uploads and data export ZIPs
 * that no row names. Running it again at the same moment removes nothing more.
 */
export async function runRetention(em: EntityManager, options: RetentionOptions): Promise<RetentionReport> {
  const { asOf, periods } = options;
  const before = (days: number) => new Date(asOf.getTime() - days * DAY);

  const report = await em.fork().transactional(async (tx) => {
    const keys: string[] = [];
    const removed: RetentionReport = {};
    const editions = await tx.find(Edition, {}, { fields: ['id', 'endsAt'], orderBy: { year: 'asc' } });
    /** The editions whose end lies `days` or more before `asOf`. */
    const endedDaysAgo = (days: number) =>
      editions.filter((edition) => asOf.getTime() >= edition.endsAt.getTime() + days * DAY).map((e) => e.id);

    removed.unconfirmedVisitors = await tx.nativeDelete(VisitorRegistration, {
      confirmedAt: null,
      createdAt: { $lt: before(periods.unconfirmedVisitors) },
    });
    // A confirmed visitor who asked to hear about the next edition is kept until that mail went out
    // (at most `visitorsForNextEdition` days after their edition); everyone else goes with the edition.
    const visitorEditions = endedDaysAgo(periods.visitorsAfterEvent);
    removed.visitorsAfterEvent = visitorEditions.length
      ? await tx.nativeDelete(VisitorRegistration, {
          edition: { $in: visitorEditions },
          $or: [
            { nextEditionConsentAt: null },
            { nextEditionNotifiedAt: { $ne: null } },
            { confirmedAt: null },
          ],
        })
      : 0;
    const waitedEditions = endedDaysAgo(periods.visitorsForNextEdition);
    removed.visitorsForNextEdition = waitedEditions.length
      ? await tx.nativeDelete(VisitorRegistration, { edition: { $in: waitedEditions } })
      : 0;

    // The visitors' award: addresses and votes go with their edition (its final totals stay on the
    // award); an address never confirmed goes after a few days.
    const voterEditions = endedDaysAgo(periods.awardVotersAfterEvent);
    removed.awardVotersAfterEvent = voterEditions.length
      ? await tx.nativeDelete(AwardVoter, { edition: { $in: voterEditions } })
      : 0;
    removed.unconfirmedAwardVoters = await tx.nativeDelete(AwardVoter, {
      confirmedAt: null,
      createdAt: { $lt: before(periods.unconfirmedAwardVoters) },
    });
    // So do the votes still waiting in the browsers they were cast in (a waiting one holds its browser).
    await tx.nativeDelete(AwardVote, {
      browser: { $ne: '' },
      createdAt: { $lt: before(periods.unconfirmedAwardVoters) },
    });

    // The jury: who gave which value and who declared a bias go once the period after the meeting
    // has passed, results published or not (its classes' places and means, which name no judge,
    // stay; after the jury's deadline nothing is ranked from the values any more); an invitation to
    // an address goes after days.
    const juryEditions = endedDaysAgo(periods.juryScoresAfterEvent);
    const juryClasses = juryEditions.length
      ? (await tx.find(JuryClass, { edition: { $in: juryEditions } }, { fields: ['id'] })).map((c) => c.id)
      : [];
    removed.juryScoresAfterEvent =
      (juryClasses.length ? await tx.nativeDelete(JuryScore, { juryClass: { $in: juryClasses } }) : 0) +
      (juryEditions.length ? await tx.nativeDelete(JuryRecusal, { edition: { $in: juryEditions } }) : 0);
    removed.juryInvites = await tx.nativeDelete(JuryInvite, {
      createdAt: { $lt: before(periods.juryInvites) },
    });

    // Statement lines no reference matched and nobody assigned are of people who are not ours: their
    // payer's name, account and text go after days; amount and date stay for the books.
    removed.unassignedBankLines = await pruneUnassignedLines(tx, before(periods.unassignedBankLines));

    const rejectedEditions = endedDaysAgo(periods.rejectedAfterEvent);
    const rejected = rejectedEditions.length
      ? await tx.find(Vehicle, { edition: { $in: rejectedEditions }, status: 'rejected' }, { fields: ['id'] })
      : [];
    const rejectedIds = rejected.map((vehicle) => vehicle.id);
    if (rejectedIds.length) {
      const media = await tx.find(Media, { vehicle: { $in: rejectedIds } });
      keys.push(...media.flatMap(mediaObjectKeys));
    }
    removed.rejectedAfterEvent = rejectedIds.length
      ? await tx.nativeDelete(Vehicle, { id: { $in: rejectedIds } })
      : 0;

    // Signed but never attached (or left behind by a job that died after cleaning it).
    const stale = await unattachedUploadKeys(tx, before(periods.unattachedUploads));
    keys.push(...stale);
    removed.unattachedUploads = stale.length ? await tx.nativeDelete(Upload, { key: { $in: stale } }) : 0;

    removed.emailLog = await tx.nativeDelete(EmailLog, { createdAt: { $lt: before(periods.emailLog) } });
    // An old mark goes: the next mail to the address is tried again (and marks it again if refused).
    removed.mailBounces = await tx.nativeDelete(MailBounce, {
      bouncedAt: { $lt: before(periods.mailBounces) },
    });
    removed.outbox = await tx.nativeDelete(Outbox, {
      publishedAt: { $ne: null, $lt: before(periods.outbox) },
    });

    const exportEditions = endedDaysAgo(periods.quartettExportsAfterEvent);
    const sets = exportEditions.length
      ? await tx.find(QuartettSet, { edition: { $in: exportEditions }, exportFileUrl: { $ne: null } })
      : [];
    for (const set of sets) {
      const key = keyOf(set.exportFileUrl!);
      if (key) keys.push(key);
      set.exportFileUrl = null;
    }
    removed.quartettExportsAfterEvent = sets.length;

    // Which device and staff member scanned whom is event-day data: after the event only the
    // check-in time stays, on the invitation.
    removed.gateScansAfterEvent = 0;
    for (const editionId of endedDaysAgo(periods.gateScansAfterEvent)) {
      removed.gateScansAfterEvent += await deleteGateScans(tx, editionId);
    }

    const expired = await tx.find(DataExport, { expiresAt: { $lt: asOf } });
    keys.push(...expired.flatMap((row) => (row.objectKey ? [row.objectKey] : [])));
    removed.accountExports = expired.length
      ? await tx.nativeDelete(DataExport, { id: { $in: expired.map((row) => row.id) } })
      : 0;

    // The audit log of staff actions: the one deletion its append-only rule allows.
    removed.auditLog = await deleteAuditRowsBefore(tx, before(periods.auditLog));

    removed.resetTokens = await clearExpiredResetTokens(tx, asOf);
    removed.emailChanges = await clearExpiredEmailChanges(tx, asOf);
    removed.confirmTokens = await clearExpiredConfirmTokens(tx, asOf);
    removed.sessions = await deleteSessionsExpiredBy(tx, asOf);
    removed.retentionRuns = await tx.nativeDelete(RetentionRun, { startedAt: { $lt: before(90) } });

    if (keys.length) enqueue(tx, 'storage.delete', { keys });
    // The backstop for objects no row names (an upload PUT with its signed URL after the account
    // was deleted, the ZIP of an export job that died after storing it): swept once an hour, past
    // an upload URL's lifetime.
    const hour = new Date(Math.floor(asOf.getTime() / HOUR) * HOUR).toISOString();
    await enqueueFollowUp(tx, { jobId: 'retention', what: `storage.sweep ${hour}` }, 'storage.sweep', {
      before: new Date(asOf.getTime() - UPLOAD_URL_SECONDS * 1000).toISOString(),
    });
    // A run that erased something is journaled: a restore runs it again at the same moment.
    if (Object.values(removed).some((count) => count > 0))
      journalErasure(tx, { kind: 'retention', asOf: asOf.toISOString() });
    // Journal rows already in shared storage: a restored database needs those of the day before its
    // snapshot only (a restore replays what its snapshot did not see).
    removed.erasureJournal = await pruneStoredJournalRows(tx, before(ERASURE_JOURNAL_ROW_DAYS));
    tx.create(RetentionRun, { startedAt: new Date(), asOf, removed });
    return removed;
  });
  return report;
}

export async function lastRetentionRun(em: EntityManager): Promise<RetentionRun | null> {
  const [last] = await em.find(RetentionRun, {}, { orderBy: { startedAt: 'desc' }, limit: 1 });
  return last ?? null;
}
