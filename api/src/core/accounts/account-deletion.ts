import { LockMode } from '@mikro-orm/core';
import { clearBounces } from '../emails/email-log.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { CONFIRMED_ADDRESS_TEMPLATES, mailboxOf, type EmailTemplateName } from '@schlosstreffen/shared';
import { EmailLog } from '../model/email-log.entity.js';
import { Media } from '../model/media.entity.js';
import { Outbox } from '../model/outbox.entity.js';
import { SignExport } from '../model/sign-export.entity.js';
import { enqueue } from '../outbox/outbox.js';
import { mediaObjectKeys, signExportKey, uploadPrefix, sharePrefix } from '../storage/objects.js';
import { Vehicle } from '../model/vehicle.entity.js';
import { VisitorRegistration } from '../model/visitor-registration.entity.js';
import { AwardVoter } from '../model/award.entity.js';
import { forgetCarsInAwards, runAwardMoments } from '../award/award.js';
import { redrawJuryCertificatesOf } from '../jury/certificates.js';
import { deleteJuryInvitesTo } from '../jury/jury-privacy.js';
import { Invitation } from '../model/invitation.entity.js';
import { forgetPayers } from '../payments/payments.queries.js';
import { forgetCarsInJury } from '../jury/jury-results.js';
import { DataExport } from '../model/data-export.entity.js';
import { destroyUserSessions } from './sessions.js';
import { redactAuditAddresses } from '../audit/audit.queries.js';
import { markSetsWithDeletedAccount, outboxMailsTo, redactStatusLogComments } from './accounts.queries.js';
import { User } from '../model/user.entity.js';
import { balanceAllEditions } from '../reviews/reviews.js';
import { journalErasure } from '../outbox/erasure-journal.js';

/** Mails that only an account sends to its own addresses (any other mail there may be someone else's). */
const ACCOUNT_MAIL_TEMPLATES: EmailTemplateName[] = [
  ...CONFIRMED_ADDRESS_TEMPLATES,
  'account-confirm',
  'email-change-confirm',
  'password-reset',
];

export interface DeletedAccount {
  vehicles: number;
  /** Objects queued for deletion (plus everything under the user's upload prefix). */
  objects: number;
  /** Queued or finished jobs whose data named the person, queued for removal from the queues. */
  jobs: number;
}

/**
 * Deletes an account and everything that names the person, in one transaction: vehicles, media,
 * invitations, consents, uploads and data exports, a judge's values, bias declarations and classes go
 * with the account (foreign keys cascade);
 * sessions, visitor pre-registrations with the same email (once confirmed), email log rows, the
 * marks of its addresses as refused by a mail server, and
 * outbox payloads addressed to it are deleted; the stored objects and the jobs in the queues that carry the
 * person's data are removed through the outbox. The status log keeps its rows, which name people by
 * id only; the internal comments on the person's vehicles are cleared (the one redaction the log
 * allows). The audit log keeps the person's staff actions without their addresses. Quartett sets
 * that printed one of the vehicles are marked. The account's id goes to the erasure journal in
 * the same transaction, which a restore replays. Undefined when no such user.
 */
export async function deleteAccount(
  em: EntityManager,
  userId: string,
  /** The app's clock: which editions' open reviews of a leaving reviewer are spread anew. */
  at: Date = new Date(),
): Promise<DeletedAccount | undefined> {
  // A voting closed at its set moment gets its final totals before the address's votes leave the count.
  await runAwardMoments(em, at);
  const deleted = await em.fork().transactional(async (tx) => {
    const user = await tx.findOne(User, userId, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!user) return undefined;
    // What others stored under an address (visitor registrations, mails to it) is the person's
    // only once they confirmed the address; of an unconfirmed one, only the account's own mails.
    const confirmed = user.emailVerified ? [user.email] : [];
    const emails = [user.email, ...(user.pendingEmail ? [user.pendingEmail] : [])];

    const vehicles = await tx.find(Vehicle, { user: userId }, { fields: ['id'] });
    const vehicleIds = vehicles.map((vehicle) => vehicle.id);
    const media = await tx.find(Media, { vehicle: { $in: vehicleIds } });
    // Locked: an export job recording its ZIP right now either finishes first (its key is seen
    // here) or waits, finds no row and deletes the ZIP itself.
    const exports = await tx.find(DataExport, { user: userId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    // The windshield signs of the person's cars (their rows go with the cars).
    const signs = await tx.find(SignExport, { vehicle: { $in: vehicleIds } }, { fields: ['id'] });
    const keys = [
      ...media.flatMap(mediaObjectKeys),
      ...exports.flatMap((row) => (row.objectKey ? [row.objectKey] : [])),
      ...signs.map((row) => signExportKey(row.id)),
      // The visitors' award: the cars' names leave its final totals, their certificates go.
      ...(await forgetCarsInAwards(tx, vehicleIds)),
    ];

    // The jury's record: the places stay by start number, the cars' names leave it; a certificates
    // file that showed one of them is drawn anew without it. What the person did as a judge (values,
    // bias declarations, classes) goes with the account.
    await redrawJuryCertificatesOf(tx, vehicleIds);
    await forgetCarsInJury(tx, vehicleIds);
    // The fee's bookings stay for the books (§ 147 AO) without the payer's name, account and text.
    await forgetPayers(
      tx,
      (await tx.find(Invitation, { vehicle: { $in: vehicleIds } }, { fields: ['id'] })).map((i) => i.id),
    );

    if (vehicleIds.length) {
      await markSetsWithDeletedAccount(tx, vehicleIds);
      await redactStatusLogComments(tx, vehicleIds);
    }

    if (confirmed.length) await tx.nativeDelete(VisitorRegistration, { email: { $in: confirmed } });
    // The votes of the address's mailbox for the visitors' award go too (out of the count while
    // voting is open).
    if (confirmed.length) await tx.nativeDelete(AwardVoter, { mailbox: { $in: confirmed.map(mailboxOf) } });
    // Invitations to judge sent to the confirmed address.
    for (const email of confirmed) await deleteJuryInvitesTo(tx, email);
    await tx.nativeDelete(EmailLog, {
      $or: [
        { recipient: { $in: confirmed } },
        { recipient: { $in: emails }, template: { $in: ACCOUNT_MAIL_TEMPLATES } },
      ],
    });
    // Mails to the person (queued or sent): their payloads hold the address and the first name.
    const jobIds = await outboxMailsTo(tx, emails, confirmed, ACCOUNT_MAIL_TEMPLATES);
    if (jobIds.length) await tx.nativeDelete(Outbox, { id: { $in: jobIds } });
    // Marks of the person's addresses as refused by a mail server, with the server's answers.
    await clearBounces(tx, emails);
    await destroyUserSessions(tx, userId);
    // The audit log keeps the person's staff actions (named 'Gelöschtes Konto' from now on), without addresses.
    await redactAuditAddresses(tx, userId);

    enqueue(tx, 'storage.delete', {
      keys,
      // The uploads and the link previews of the person's cars.
      prefixes: [uploadPrefix(userId), ...vehicleIds.map(sharePrefix)],
    });
    if (jobIds.length) enqueue(tx, 'privacy.erase-jobs', { jobIds });
    const reviewer = user.role === 'reviewer';
    tx.remove(user);
    journalErasure(tx, { kind: 'account', subject: userId });
    // A reviewer left: their submitted reviews stay ('Gelöschtes Konto'), their open ones go to others.
    if (reviewer) {
      await tx.flush();
      await balanceAllEditions(tx, at);
    }
    return { vehicles: vehicleIds.length, objects: keys.length, jobs: jobIds.length };
  });
  return deleted;
}
