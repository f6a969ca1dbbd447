import { LockMode } from '@mikro-orm/core';
import { bounceOf } from '../emails/email-log.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  AUDIT_ACTIONS,
  mediaFileName,
  personLabel,
  uniqueEntryName,
  type RetentionPeriods,
} from '@schlosstreffen/shared';
import { Invitation } from '../model/invitation.entity.js';
import { VisitorTicket, VisitorTicketScan } from '../model/visitor-ticket.entity.js';
import type { Media } from '../model/media.entity.js';
import { enqueue } from '../outbox/outbox.js';
import { keyOf } from '../storage/objects.js';
import { Vehicle } from '../model/vehicle.entity.js';
import { vehicleData } from '../model/vehicle-data.js';
import { VisitorRegistration } from '../model/visitor-registration.entity.js';
import { votesOfAddress } from '../award/award.js';
import { juryDataOf } from '../jury/jury-privacy.js';
import { paymentsForExport } from '../payments/payments.queries.js';
import { Consent } from '../model/consent.entity.js';
import { assertDataExportRoom } from './account-limits.js';
import { DataExport } from '../model/data-export.entity.js';
import { User } from '../model/user.entity.js';
import { ReviewAssignment, ReviewConflict, ReviewExclusion } from '../model/review-assignment.entity.js';
import { Edition } from '../model/edition.entity.js';
import { PublicText } from '../model/public-text.entity.js';
import { MailTemplate } from '../model/mail-template.entity.js';
import { gateScansOf, ownHistoryOf, visitorUpdatesOf } from './accounts.queries.js';
import { auditEntriesOf } from '../audit/audit.js';

const DAY = 24 * 3600 * 1000;

/**
 * Starts a data export of the user's own data (one at a time, a few a day), built by the
 * `account.export` job.
 */
export async function requestDataExport(em: EntityManager, user: User): Promise<DataExport> {
  return em.transactional(async (tx) => {
    await assertDataExportRoom(tx, user.id);
    const row = tx.create(DataExport, { user: user.id, status: 'queued', progress: 0 });
    await tx.flush();
    enqueue(tx, 'account.export', { exportId: row.id });
    return row;
  });
}

export function latestDataExport(em: EntityManager, user: User): Promise<DataExport | null> {
  return em.findOne(DataExport, { user: user.id }, { orderBy: { createdAt: 'desc' } });
}

/** One photo of the export: the clean full-size copy and the name it gets in the ZIP. */
export interface ExportPhoto {
  key: string;
  name: string;
}

export interface AccountData {
  /** JSON documents by file name. */
  documents: Record<string, unknown>;
  photos: ExportPhoto[];
}

/**
 * Everything the platform holds about the export's owner: account, consents, vehicles with their
 * images, the status history of their vehicles (without internal notes, scores or staff names),
 * invitations, visitor pre-registrations with the same (confirmed) email, what they did as a judge
 * (and invitations to judge sent to their confirmed address) and, for staff, their own rows of the
 * audit log. Marks the export running.
 * Undefined when the export (or its owner) is gone.
 */
export async function collectAccountData(
  em: EntityManager,
  exportId: string,
): Promise<AccountData | undefined> {
  const fork = em.fork();
  const row = await fork.findOne(DataExport, { id: exportId }, { populate: ['user'] });
  if (!row || row.status === 'ready') return undefined;
  await fork.nativeUpdate(DataExport, { id: exportId }, { status: 'running', progress: 0, error: null });
  const user = row.user;
  const vehicles = await fork.find(
    Vehicle,
    { user: user.id },
    { populate: ['media', 'edition'], orderBy: { createdAt: 'asc' } },
  );
  const ids = vehicles.map((vehicle) => vehicle.id);
  const consents = await fork.find(Consent, { user: user.id }, { orderBy: { grantedAt: 'asc' } });
  // Whether a mail server refused the account's address for good, and its answer: the person's
  // only once they confirmed the address (any mail to it may have marked it).
  const bounce = user.emailVerified ? await bounceOf(fork, user.email) : null;
  const invitations = await fork.find(Invitation, { vehicle: { $in: ids } });
  // Registrations under the same address are the person's only once they confirmed that address.
  const visitors = user.emailVerified
    ? await fork.find(VisitorRegistration, { email: user.email }, { populate: ['edition'] })
    : [];
  // Votes for the visitors' award under the address: the person's once they confirmed it.
  const awardVotes = user.emailVerified ? await votesOfAddress(fork, user.email) : [];
  // A judge's editions, classes, own values and bias declarations; invitations to judge sent to
  // the confirmed address.
  const jury = await juryDataOf(fork, user);
  // The participation fee of each invitation: its bookings with the statement lines behind them.
  const payments = await paymentsForExport(
    fork,
    invitations.map((invitation) => invitation.id),
  );
  // The gate that let each car in, and, for staff, the scans they made at a gate.
  const scans = await gateScansOf(fork, user.id);
  // Each registration's visitor ticket, where the edition has tickets, with its scans at the gate.
  const tickets = visitors.length
    ? await fork.find(VisitorTicket, { registration: { $in: visitors.map((visitor) => visitor.id) } })
    : [];
  const ticketScans = tickets.length
    ? await fork.find(
        VisitorTicketScan,
        { ticket: { $in: tickets.map((ticket) => ticket.id) } },
        { orderBy: { scannedAt: 'asc', id: 'asc' } },
      )
    : [];
  const ticketsOf = new Map(
    tickets.map((ticket) => [
      ticket.registration.id,
      {
        state: ticket.state,
        queuedAt: ticket.queuedAt,
        issuedAt: ticket.issuedAt ?? null,
        returnedAt: ticket.returnedAt ?? null,
        gateScans: ticketScans
          .filter((scan) => scan.ticket?.id === ticket.id)
          .map((scan) => ({
            kind: scan.kind,
            result: scan.result,
            gate: scan.gate,
            scannedAt: scan.scannedAt,
          })),
      },
    ]),
  );
  // The event updates each registration was sent (or is being sent), with their state.
  const updatesOf = new Map<string, Array<Record<string, unknown>>>();
  if (visitors.length) {
    const ids = visitors.map((visitor) => visitor.id);
    const rows = await visitorUpdatesOf(fork, ids);
    for (const row of rows) {
      const list = updatesOf.get(String(row.registration_id)) ?? [];
      list.push({ subject: row.subject, state: row.state, sentAt: row.sent_at ?? null });
      updatesOf.set(String(row.registration_id), list);
    }
  }
  const history = ids.length ? await ownHistoryOf(fork, ids) : [];
  // A staff member's own actions in the audit log.
  const audit = await auditEntriesOf(fork, user.id);
  // A reviewer's own reviews and the people they declared bias towards.
  const reviews = await fork.find(
    ReviewAssignment,
    { reviewerId: user.id },
    { orderBy: { assignedAt: 'asc' } },
  );
  const reviewed = new Map(
    (reviews.length
      ? await fork.find(Vehicle, { id: { $in: reviews.map((r) => r.vehicleId) } }, { populate: ['edition'] })
      : []
    ).map((vehicle) => [vehicle.id, vehicle]),
  );
  const conflicts = await fork.find(
    ReviewConflict,
    { reviewerId: user.id },
    { orderBy: { createdAt: 'asc' } },
  );
  // The reviews a bias ended, which they are never given again.
  const exclusions = await fork.find(
    ReviewExclusion,
    { reviewerId: user.id },
    { orderBy: { createdAt: 'asc' } },
  );
  const excludedVehicles = new Map(
    (exclusions.length
      ? await fork.find(
          Vehicle,
          { id: { $in: exclusions.map((row) => row.vehicleId) } },
          { populate: ['edition'] },
        )
      : []
    ).map((vehicle) => [vehicle.id, vehicle]),
  );
  // The public texts ('Texte') whose last change was theirs: which edition's, and when.
  const textsChanged = await fork.find(PublicText, { updatedBy: user.id }, { orderBy: { updatedAt: 'asc' } });
  // The versions of mail texts they saved ('E-Mail-Vorlagen').
  const mailVersions = await fork.find(
    MailTemplate,
    { createdBy: user.id },
    { orderBy: { createdAt: 'asc' } },
  );
  const editionIds = [...textsChanged, ...mailVersions].map((row) => row.editionId);
  const textEditions = new Map(
    (editionIds.length ? await fork.find(Edition, { id: { $in: editionIds } }) : []).map((edition) => [
      edition.id,
      edition.name,
    ]),
  );
  const biasedTowards = new Map(
    (conflicts.length ? await fork.find(User, { id: { $in: conflicts.map((c) => c.personId) } }) : []).map(
      (person) => [person.id, person],
    ),
  );

  const photos: ExportPhoto[] = [];
  const taken = new Set<string>();
  const clean = (media: Media) =>
    media.type === 'image' && media.approvalStatus !== 'rejected' && !media.uploadKey;
  for (const vehicle of vehicles) {
    for (const media of vehicle.media.getItems().filter(clean)) {
      const key = keyOf(media.url);
      if (!key) continue;
      const name = uniqueEntryName(
        mediaFileName({ url: media.url, createdAt: media.createdAt, vehicle }),
        taken,
      );
      photos.push({ key, name: `fotos/${name}` });
    }
  }

  const documents: Record<string, unknown> = {
    'konto.json': {
      id: user.id,
      email: user.email,
      pendingEmail: user.pendingEmail ?? null,
      firstName: user.firstName,
      lastName: user.lastName,
      phone: user.phone ?? null,
      instagramHandle: user.instagramHandle ?? null,
      role: user.role,
      // Staff: only whether a second factor is set up and since when; never its key or codes.
      secondFactor: { setUp: Boolean(user.secondFactorEnabledAt), since: user.secondFactorEnabledAt ?? null },
      mailBounced: bounce ? { reason: bounce.reason, since: bounce.bouncedAt } : null,
      createdAt: user.createdAt,
      updatedAt: user.updatedAt,
    },
    'einwilligungen.json': consents.map((consent) => ({
      kind: consent.kind,
      vehicleId: consent.vehicle?.id ?? null,
      version: consent.version,
      wording: consent.wording,
      source: consent.source,
      grantedAt: consent.grantedAt,
      withdrawnAt: consent.withdrawnAt ?? null,
    })),
    'fahrzeuge.json': vehicles.map((vehicle) => ({
      id: vehicle.id,
      // Every edition the person applied to.
      edition: vehicle.edition.name,
      status: vehicle.status,
      ...vehicleData(vehicle),
      createdAt: vehicle.createdAt,
      updatedAt: vehicle.updatedAt,
      media: vehicle.media.getItems().map((item) => ({
        id: item.id,
        url: item.url,
        isHero: item.isHero,
        cropX: item.cropX,
        cropY: item.cropY,
        scale: item.scale,
        approvalStatus: item.approvalStatus,
        createdAt: item.createdAt,
      })),
    })),
    'statusverlauf.json': history.map((entry) => ({
      vehicleId: entry.vehicle_id,
      by: entry.actor_role === 'user' ? 'owner' : entry.actor_role,
      kind: entry.kind,
      oldStatus: entry.old_status,
      newStatus: entry.new_status,
      createdAt: new Date(entry.created_at as string).toISOString(),
    })),
    'einladungen.json': invitations.map((invitation) => ({
      vehicleId: invitation.vehicle.id,
      startNumber: invitation.startNumber,
      parkingZone: invitation.parkingZone,
      checkInCode: invitation.qrCode,
      checkedIn: invitation.checkedIn,
      checkedInAt: invitation.checkedInAt ?? null,
      checkedInGate:
        (scans.find((scan) => scan.invitation_id === invitation.id && scan.admitted)?.gate as string) ?? null,
      issuedAt: invitation.issuedAt,
      confirmBy: invitation.confirmBy ?? null,
      remindedAt: invitation.remindedAt ?? null,
      releasedAt: invitation.releasedAt ?? null,
      releaseReason: invitation.releaseReason ?? null,
      createdAt: invitation.createdAt,
    })),
    'einlass-scans.json': scans
      .filter((scan) => scan.staff_id === user.id)
      .map((scan) => ({
        startNumber: scan.start_number,
        gate: scan.gate,
        scannedAt: new Date(scan.scanned_at as string).toISOString(),
        admitted: scan.admitted,
      })),
    'pruefungen.json': reviews.map((review) => ({
      vehicleId: review.vehicleId,
      vehicle: reviewed.get(review.vehicleId)?.title ?? null,
      edition: reviewed.get(review.vehicleId)?.edition.name ?? null,
      assignedAt: review.assignedAt,
      submittedAt: review.submittedAt ?? null,
      scores: review.scores ?? null,
      total: review.total ?? null,
      comment: review.comment ?? null,
    })),
    'pruefungen-beendet.json': exclusions.map((row) => ({
      vehicleId: row.vehicleId,
      vehicle: excludedVehicles.get(row.vehicleId)?.title ?? null,
      edition: excludedVehicles.get(row.vehicleId)?.edition.name ?? null,
      since: row.createdAt,
    })),
    'befangenheit.json': conflicts.map((conflict) => ({
      name: personLabel(biasedTowards.get(conflict.personId) ?? null),
      email: biasedTowards.get(conflict.personId)?.email ?? null,
      since: conflict.createdAt,
    })),
    'oeffentliche-texte.json': textsChanged.map((row) => ({
      edition: textEditions.get(row.editionId) ?? null,
      lastChangedAt: row.updatedAt,
    })),
    'e-mail-vorlagen.json': mailVersions.map((row) => ({
      edition: textEditions.get(row.editionId) ?? null,
      mail: row.mail,
      version: row.version,
      restoredDefault: row.isDefault,
      savedAt: row.createdAt,
    })),
    'protokoll.json': audit.map((entry) => ({
      action: entry.action,
      label: AUDIT_ACTIONS[entry.action] ?? entry.action,
      role: entry.actorRole,
      target: entry.target,
      details: entry.details,
      address: entry.ip,
      createdAt: entry.createdAt,
    })),
    'publikumsliebling-stimmen.json': awardVotes,
    'jury.json': jury,
    'startgeld.json': payments.map((row) => ({
      edition: row.edition,
      reference: row.reference,
      amountCents: row.amount_cents,
      paidCents: row.paid_cents,
      refundedCents: row.refunded_cents,
      dueAt: row.due_at,
      waivedAt: row.waived_at,
      waiveReason: row.waive_reason,
      bookings: row.bookings ?? [],
    })),
    'besucher-voranmeldungen.json': visitors.map((visitor) => ({
      edition: visitor.edition.name,
      firstName: visitor.firstName,
      lastName: visitor.lastName,
      email: visitor.email,
      phone: visitor.phone ?? null,
      createdAt: visitor.createdAt,
      confirmedAt: visitor.confirmedAt ?? null,
      nextEditionConsent: visitor.nextEditionConsentAt
        ? {
            givenAt: visitor.nextEditionConsentAt,
            version: visitor.nextEditionConsentVersion,
            notifiedAt: visitor.nextEditionNotifiedAt ?? null,
          }
        : null,
      eventUpdates: updatesOf.get(visitor.id) ?? [],
      // The visitor ticket or the place on the waiting list (its secret is only in the mail).
      ticket: ticketsOf.get(visitor.id) ?? null,
    })),
  };
  return { documents, photos };
}

export async function recordDataExportProgress(
  em: EntityManager,
  exportId: string,
  percent: number,
): Promise<void> {
  await em.fork().nativeUpdate(DataExport, { id: exportId, status: 'running' }, { progress: percent });
}

/**
 * The ZIP is stored: downloadable by its owner for `accountExports` days. False when the export (or
 * its account) was deleted meanwhile: no row names the ZIP, so the caller deletes it. The row is
 * locked, so a deletion either waits and then sees the key, or went first and leaves no row.
 */
export async function recordDataExportReady(
  em: EntityManager,
  exportId: string,
  key: string,
  periods: RetentionPeriods,
  now = new Date(),
): Promise<boolean> {
  return em.fork().transactional(async (tx) => {
    const row = await tx.findOne(DataExport, { id: exportId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!row) return false;
    row.status = 'ready';
    row.progress = 100;
    row.objectKey = key;
    row.finishedAt = now;
    row.expiresAt = new Date(now.getTime() + periods.accountExports * DAY);
    return true;
  });
}

export async function recordDataExportFailed(
  em: EntityManager,
  exportId: string,
  error: unknown,
): Promise<void> {
  const message = error instanceof Error ? error.message : String(error);
  await em
    .fork()
    .nativeUpdate(
      DataExport,
      { id: exportId, status: { $ne: 'ready' } },
      { status: 'failed', error: message.slice(0, 2000) },
    );
}
