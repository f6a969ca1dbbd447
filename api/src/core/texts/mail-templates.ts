/**
 * The mails' texts per edition ('E-Mail-Vorlagen'): admins edit a mail's subject and body with its
 * placeholders; every save (and every 'Standard wiederherstellen') adds a version naming its editor,
 * and mails use the newest one, else the default text (version 0). A new edition starts with its
 * template edition's texts.
 */
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  defaultMailText,
  eventFacts,
  fillMail,
  isMailKey,
  mailKeyOf,
  MADE_UP_SAMPLE,
  MAIL_KEYS,
  MAIL_TEMPLATE_MESSAGES,
  mailTextProblems,
  mailValues,
  personLabel,
  PRIVACY_MESSAGES,
  sampleMailProps,
  templateOfMail,
  vehicleDisplayName,
  type EmailTemplateName,
  type EventSource as EventDates,
  type MailKey,
  type MailSampleData,
  type MailText,
} from '@schlosstreffen/shared';
import type {
  MailSampleView,
  MailTemplateList,
  MailTemplateSummary,
  MailTemplateView,
} from '@schlosstreffen/shared/api';
import { conflict, invalid, notFound } from '../errors.js';
import { eventOfEdition } from '../editions/edition-events.js';
import { Edition } from '../model/edition.entity.js';
import { Invitation } from '../model/invitation.entity.js';
import { MailTemplate, versionsInUse } from '../model/mail-template.entity.js';
import { User } from '../model/user.entity.js';
import { Vehicle } from '../model/vehicle.entity.js';
import { enqueue } from '../outbox/outbox.js';
import type { PendingAudit } from '../pending-audit.js';

/** The text a mail of this edition uses now: the newest version, else the default (version 0). */
export async function currentMailText(
  em: EntityManager,
  editionId: string,
  key: MailKey,
): Promise<MailText & { version: number }> {
  const [row] = await em.find(
    MailTemplate,
    { editionId, mail: key },
    { orderBy: { version: 'desc' }, limit: 1 },
  );
  return row
    ? { subject: row.subject, body: row.body, version: row.version }
    : { ...defaultMailText(key), version: 0 };
}

async function editorNames(em: EntityManager, rows: MailTemplate[]): Promise<Map<string, string>> {
  const ids = [...new Set(rows.flatMap((row) => (row.createdBy ? [row.createdBy] : [])))];
  const users = ids.length ? await em.find(User, { id: { $in: ids } }) : [];
  return new Map(users.map((user) => [user.id, personLabel(user)]));
}

const nameOf = (names: Map<string, string>, row: MailTemplate) =>
  (row.createdBy && names.get(row.createdBy)) || PRIVACY_MESSAGES.deletedAccount;

const summaryOf = (key: MailKey, row: MailTemplate | undefined, names: Map<string, string>) =>
  ({
    key,
    version: row?.version ?? 0,
    isDefault: row ? row.isDefault : true,
    changedAt: row?.createdAt.toISOString() ?? null,
    changedBy: row ? nameOf(names, row) : null,
  }) satisfies MailTemplateSummary;

/** Every mail with its version in use and its last change. */
export async function mailTemplateList(em: EntityManager, editionId: string): Promise<MailTemplateList> {
  const edition = await em.findOneOrFail(Edition, editionId);
  const newest = versionsInUse(await em.find(MailTemplate, { editionId }, { refresh: true }));
  const names = await editorNames(em, [...newest.values()]);
  return {
    edition: { year: edition.year },
    mails: MAIL_KEYS.map((key) => summaryOf(key, newest.get(key), names)),
  };
}

const keyOf = (key: string): MailKey => {
  if (!isMailKey(key)) throw notFound(MAIL_TEMPLATE_MESSAGES.unknownMail);
  return key;
};

/** One mail: its text in use and every version (newest first, with who and when). */
export async function mailTemplateView(
  em: EntityManager,
  editionId: string,
  mail: string,
): Promise<MailTemplateView> {
  const key = keyOf(mail);
  const edition = await em.findOneOrFail(Edition, editionId);
  const rows = await em.find(
    MailTemplate,
    { editionId, mail: key },
    { orderBy: { version: 'desc' }, refresh: true },
  );
  const names = await editorNames(em, rows);
  const text = rows[0] ?? null;
  return {
    ...summaryOf(key, rows[0], names),
    edition: { year: edition.year },
    ...(text ? { subject: text.subject, body: text.body } : defaultMailText(key)),
    versions: rows.map((row) => ({
      version: row.version,
      isDefault: row.isDefault,
      subject: row.subject,
      createdAt: row.createdAt.toISOString(),
      createdBy: nameOf(names, row),
    })),
  };
}

/**
 * Adds a version: the text (refused with every problem, in German, when it names an unknown
 * placeholder or lacks a required one) or, with `restore`, the default text. Refused when the
 * mail changed since the editor loaded `baseVersion`.
 */
export async function saveMailTemplate(
  em: EntityManager,
  editionId: string,
  mail: string,
  change: { text: MailText; baseVersion: number; restore?: boolean },
  editorId: string,
  at: Date,
  audit?: PendingAudit,
): Promise<MailTemplateView> {
  const key = keyOf(mail);
  const text = change.restore ? defaultMailText(key) : change.text;
  const problems = mailTextProblems(key, text);
  if (problems.length) throw invalid(problems[0]!.message, problems);
  await em.fork().transactional(async (tx) => {
    // The edition's row is the lock: two saves of its mails follow each other.
    await tx.findOneOrFail(Edition, editionId, { lockMode: LockMode.PESSIMISTIC_WRITE });
    const [current] = await tx.find(
      MailTemplate,
      { editionId, mail: key },
      { orderBy: { version: 'desc' }, limit: 1 },
    );
    const version = current?.version ?? 0;
    if (version !== change.baseVersion) {
      const by = current?.createdBy ? await tx.findOne(User, current.createdBy) : null;
      throw conflict(
        MAIL_TEMPLATE_MESSAGES.changedMeanwhile(
          version,
          by ? personLabel(by) : PRIVACY_MESSAGES.deletedAccount,
        ),
        { version },
      );
    }
    tx.create(MailTemplate, {
      editionId,
      mail: key,
      version: version + 1,
      subject: text.subject.trim(),
      body: text.body.trim(),
      isDefault: change.restore === true,
      createdBy: editorId,
      createdAt: at,
    });
    audit?.record(tx, { details: { mail: key, version: version + 1 } });
  });
  return mailTemplateView(em.fork(), editionId, key);
}

/** The chosen application's data for a preview (or made-up data without one). */
async function sampleData(
  em: EntityManager,
  editionId: string,
  vehicleId: string | null,
): Promise<{ data: MailSampleData; vehicle: Vehicle | null }> {
  if (!vehicleId) return { data: MADE_UP_SAMPLE, vehicle: null };
  const vehicle = await em.findOne(Vehicle, { id: vehicleId, edition: editionId }, { populate: ['user'] });
  if (!vehicle) throw invalid(MAIL_TEMPLATE_MESSAGES.vehicle);
  const invitation = await em.findOne(Invitation, { vehicle: vehicle.id });
  return {
    vehicle,
    data: {
      firstName: vehicle.user.firstName,
      vehicleTitle: vehicleDisplayName(vehicle),
      startNumber: invitation?.startNumber ?? MADE_UP_SAMPLE.startNumber,
      parkingZone: invitation?.parkingZone ?? MADE_UP_SAMPLE.parkingZone,
      confirmBy: invitation?.confirmBy?.toISOString() ?? null,
    },
  };
}

/**
 * The values a mail's placeholders take for one application of the edition (its owner's first name,
 * its car, its invitation) or for made-up data, and the applications to choose from.
 */
export async function mailSample(
  em: EntityManager,
  edition: { id: string } & EventDates,
  mail: string,
  vehicleId: string | null,
  publicUrl: string,
): Promise<MailSampleView> {
  const key = keyOf(mail);
  const { data, vehicle } = await sampleData(em, edition.id, vehicleId);
  const vehicles = await em.find(
    Vehicle,
    { edition: edition.id, status: { $ne: 'draft' } },
    { orderBy: { createdAt: 'asc' }, limit: 500 },
  );
  const values = mailValues(key, sampleMailProps(key, data, publicUrl, edition.start), eventFacts(edition));
  return {
    vehicle: vehicle ? { id: vehicle.id, title: vehicleDisplayName(vehicle) } : null,
    values: Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Record<
      string,
      string
    >,
    vehicles: vehicles.map((v) => ({ id: v.id, title: vehicleDisplayName(v), status: v.status })),
  };
}

/**
 * 'Testmail an mich': the draft, filled with the chosen application's data, to the admin's own
 * address through the outbox. Its subject says it is a test. Returns the outbox row id.
 */
export async function queueTestMail(
  em: EntityManager,
  admin: User,
  edition: { id: string; start: Date },
  mail: string,
  input: MailText & { vehicleId?: string | null },
  publicUrl: string,
): Promise<string> {
  const key = keyOf(mail);
  const text = { subject: input.subject, body: input.body };
  const problems = mailTextProblems(key, text);
  if (problems.length) throw invalid(problems[0]!.message, problems);
  const { data } = await sampleData(em, edition.id, input.vehicleId ?? null);
  const row = enqueue(em, 'email.send', {
    template: templateOfMail(key),
    to: admin.email,
    props: sampleMailProps(key, data, publicUrl, edition.start),
    editionId: edition.id,
    draft: { subject: MAIL_TEMPLATE_MESSAGES.testSubject(text.subject), body: text.body },
  });
  await em.flush();
  return row.id;
}

/**
 * The subject a mail of the edition will carry for an application, as its text stands now: the
 * staff's bulk preview announces it. Values the mail learns only when it is sent (the start number
 * of an invitation) show as '…'.
 */
export async function announcedSubjects(
  em: EntityManager,
  editionId: string,
  template: EmailTemplateName,
): Promise<(application: { firstName: string; vehicleTitle: string }) => string> {
  const key = mailKeyOf(template, {});
  const text = await currentMailText(em, editionId, key);
  // The meeting's facts as the worker fills them in.
  const meeting = eventOfEdition(await em.findOneOrFail(Edition, editionId));
  const event = eventFacts(meeting);
  const later = { startnummer: '…', parkzone: '…', bestaetigen_bis: '…' };
  return ({ firstName, vehicleTitle }) =>
    fillMail(key, text, {
      ...mailValues(
        key,
        sampleMailProps(key, { ...MADE_UP_SAMPLE, firstName, vehicleTitle }, '', meeting.start),
        event,
      ),
      ...later,
    }).subject;
}
