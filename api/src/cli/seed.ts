/**
 * `npm run seed`: demo accounts, vehicles in every status with their status log, and generated
 * photos in S3, for the edition current by the app's clock (APP_CLOCK). Once its meeting is over,
 * the confirmed cars were let in at the gate (all but the one marked as a no-show). Idempotent: the
 * seeded accounts are updated in place (password reset to SEED_PASSWORD), their vehicles replaced
 * (media go with them; the append-only status log keeps its old rows) and their old photos removed
 * from the bucket. From the meeting day on, the demo jury judges its classes; once the meeting is
 * over, its results are published (seed/jury.ts).
 */
import { randomUUID } from 'node:crypto';
import {
  applicationsCloseAt,
  EVENT_TIMEZONE,
  brandAndModel,
  SUBMISSION_CONSENT_KINDS,
  CONSENTS,
  AdminStatusUpdateSchema,
  ownerCanChangeStatus,
  OwnerStatusPatchSchema,
  STATUS_LABELS,
  VEHICLE_STATUSES,
  VehicleSchema,
  type Role,
  type SubmissionConsentField,
  type VehicleInput,
  type VehicleStatus,
} from '@schlosstreffen/shared';
import * as v from 'valibot';
import { ConfigError, loadClock } from '../core/config.js';
import { hashPassword } from '../core/accounts/password.js';
import { enqueue } from '../core/outbox/outbox.js';
import { refreshPublicVehicles } from '../core/public-list/public-vehicle.projection.js';
import { fullKey, mediaObjectKeys, objectPathOf, uploadPrefix } from '../core/storage/objects.js';
import { allocateParkingZone, newCheckInCode } from '../core/invitations/invitation.issue.js';
import { Consent, Edition, Invitation, Media, Review, User, Vehicle } from '../core/db/entities.js';
import { initOrm, type Orm } from '../core/db/orm.js';
import { currentEdition } from '../core/editions/editions.js';
import { setAwardMoments } from '../core/award/award.js';
import { Award } from '../core/model/award.entity.js';
import { eventOfEdition } from '../core/editions/edition-events.js';
import { nextStartNumber } from '../core/invitations/invitations.queries.js';
import { SEED_PASSWORD, SEED_USERS, SEED_VEHICLES, type SeedUser, type SeedVehicle } from './seed/data.js';
import { renderVehiclePhoto } from './seed/images.js';
import { deleteKeys, listKeys } from '../core/storage/s3.js';
import { openStorage, putJpeg, type SeedStorage } from './seed/storage.js';
import { seedJury, type SeedJuryResult } from './seed/jury.js';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** What each demo owner's submission sends: the three consents ticked, as the wizard and the dashboard do. */
const SUBMISSION_CONSENTS = { consentMedia: true, consentQuartett: true, consentContact: true } as const;

interface PlannedStep {
  oldStatus: VehicleStatus;
  newStatus: VehicleStatus;
  actor: SeedUser;
  actorRole: Role;
  at: Date;
  comment: string | null;
  score: number | null;
}

interface PlannedVehicle {
  id: string;
  seed: SeedVehicle;
  /** The validated vehicle fields. */
  fields: Omit<VehicleInput, SubmissionConsentField>;
  owner: SeedUser;
  /** The owner's first submission: when the consents it sent were recorded (later ones find them standing). */
  consentsGivenAt: Date | null;
  status: VehicleStatus;
  createdAt: Date;
  updatedAt: Date;
  steps: PlannedStep[];
  /** When it was invited (the last step to 'invited'); null when never. */
  invitedAt: Date | null;
}

interface PlannedMedia {
  vehicleId: string;
  key: string;
  isHero: boolean;
  priority: number;
  width: number;
  height: number;
  fileSize: number;
  cropX: string;
  cropY: string;
  scale: string;
  altText: string;
  createdAt: Date;
}

export async function runSeed(): Promise<number> {
  const now = loadClock()().getTime();
  // The demo data is checked before anything is stored.
  planVehicles(now);

  let storage: SeedStorage;
  try {
    storage = await openStorage();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  }

  let orm: Orm | undefined;
  try {
    orm = await initOrm(storage.config.databaseUrl, { directUrl: storage.config.databaseDirectUrl });
    // The demo applications are for the edition current now; their histories end by the time its
    // applications closed.
    const edition = await currentEdition(orm.em.fork(), new Date(now));
    const until = Math.min(now, applicationsCloseAt(edition.applicationDeadline).getTime());
    const plan = planVehicles(until);
    const result = await seed(orm, storage, plan, { now, until, edition });
    const voting = await demoVoting(orm, edition, new Date(now));
    const jury = await demoJury(orm, edition, new Date(now));
    await printSummary(orm, storage, plan, result, { edition, voting, jury });
    return 0;
  } finally {
    await orm?.close();
    await storage.stop();
  }
}

interface SeedResult {
  created: number;
  updated: number;
  removedVehicles: number;
  photos: number;
  logRows: number;
  removedObjects: number;
}

async function seed(
  orm: Orm,
  storage: SeedStorage,
  plan: PlannedVehicle[],
  { now, until, edition: current }: { now: number; until: number; edition: Edition },
): Promise<SeedResult> {
  const em = orm.em.fork();
  const emails = SEED_USERS.map((user) => user.email);
  const existing = await em.find(User, { email: { $in: emails } });
  const existingIds = new Map(existing.map((user) => [user.email, user.id]));
  const userIds = new Map(SEED_USERS.map((user) => [user.key, existingIds.get(user.email) ?? randomUUID()]));
  const idOf = (user: SeedUser) => userIds.get(user.key) as string;

  // Photos of the earlier run (uploads not cleaned yet and clean copies), removed once the new data
  // is committed.
  const staleKeys = [
    ...(
      await Promise.all(existing.map((user) => listKeys(storage.s3, storage.bucket, uploadPrefix(user.id))))
    ).flat(),
    ...(await em.find(Media, { vehicle: { user: { $in: existing.map((user) => user.id) } } })).flatMap(
      mediaObjectKeys,
    ),
  ];

  console.log(`Rendering and uploading photos to ${storage.description} ...`);
  const media: PlannedMedia[] = [];
  for (const vehicle of plan) media.push(...(await uploadPhotos(storage, vehicle, idOf(vehicle.owner))));

  const hashes = new Map(
    await Promise.all(SEED_USERS.map(async (user) => [user.key, await hashPassword(SEED_PASSWORD)] as const)),
  );

  const { created, updated, removedVehicles } = await em.transactional(async (tx) => {
    const users = await tx.find(User, { email: { $in: emails } });
    const removed = users.length
      ? await tx.nativeDelete(Vehicle, { user: { $in: users.map((u) => u.id) } })
      : 0;

    const entities = new Map<string, User>();
    const consenting = new Set(plan.filter((p) => p.consentsGivenAt).map((p) => p.owner.key));
    for (const seedUser of SEED_USERS) {
      const fields = {
        firstName: seedUser.firstName,
        lastName: seedUser.lastName,
        phone: seedUser.phone ?? null,
        instagramHandle: seedUser.instagramHandle ?? null,
        role: seedUser.role,
        passwordHash: hashes.get(seedUser.key) as string,
        // The account's flags follow the consents recorded with its submissions.
        consentMedia: consenting.has(seedUser.key),
        consentQuartett: consenting.has(seedUser.key),
        consentContact: consenting.has(seedUser.key),
        emailVerified: true,
        resetToken: null,
        resetTokenExpiry: null,
      };
      const found = users.find((user) => user.email === seedUser.email);
      if (found) {
        tx.assign(found, fields);
        entities.set(seedUser.key, found);
      } else {
        const createdAt = new Date(until - userAgeDays(seedUser, plan) * DAY);
        const user = tx.create(User, {
          id: idOf(seedUser),
          email: seedUser.email,
          ...fields,
          createdAt,
          updatedAt: createdAt,
        });
        entities.set(seedUser.key, user);
      }
    }

    const edition = await tx.findOneOrFail(Edition, current.id);
    const over = edition.endsAt.getTime() <= now;
    const vehicles = new Map<string, Vehicle>();
    for (const planned of plan) {
      const vehicle = tx.create(Vehicle, {
        ...planned.fields,
        id: planned.id,
        edition,
        user: entities.get(planned.owner.key) as User,
        title: brandAndModel(planned.fields),
        status: planned.status,
        createdAt: planned.createdAt,
        updatedAt: planned.updatedAt,
      });
      vehicles.set(planned.id, vehicle);
      for (const step of planned.steps) {
        tx.create(Review, {
          vehicleId: planned.id,
          reviewerId: idOf(step.actor),
          actorRole: step.actorRole,
          actorName: null,
          commentInternal: step.comment,
          score: step.score,
          oldStatus: step.oldStatus,
          newStatus: step.newStatus,
          createdAt: step.at,
        });
      }
      // The owner's first submission recorded the consents it sent (SUBMISSION_CONSENTS); a
      // resubmission finds them standing, a staff member's change records none.
      if (planned.consentsGivenAt) {
        for (const kind of SUBMISSION_CONSENT_KINDS.filter((k) => SUBMISSION_CONSENTS[CONSENTS[k].field])) {
          tx.create(Consent, {
            user: entities.get(planned.owner.key) as User,
            vehicle,
            kind,
            version: CONSENTS[kind].version,
            wording: CONSENTS[kind].text,
            source: 'application',
            grantedAt: planned.consentsGivenAt,
          });
        }
      }
    }

    for (const { vehicleId, key, ...item } of media) {
      // As the API attaches an upload: the url names the clean copy the worker writes.
      const id = randomUUID();
      const created = tx.create(Media, {
        id,
        vehicle: vehicles.get(vehicleId) as Vehicle,
        type: 'image',
        url: objectPathOf(fullKey(id, 'jpg')),
        uploadKey: key,
        approvalStatus: 'auto',
        ...item,
      });
      // The worker writes the renditions once the API's relay publishes these.
      enqueue(tx, 'media.thumbnail', { mediaId: created.id });
    }
    // Invited and confirmed vehicles get their invitation as the worker would issue it (start
    // number, zone, check-in code), without mailing the demo owners.
    await tx.flush();
    // After the meeting, the confirmed cars were let in during its first hour.
    const event = eventOfEdition(edition);
    let arrivals = 0;
    for (const planned of plan) {
      if (planned.status !== 'invited' && planned.status !== 'confirmed') continue;
      const checkedIn = over && planned.status === 'confirmed' && !planned.seed.noShow;
      tx.create(Invitation, {
        vehicle: vehicles.get(planned.id) as Vehicle,
        edition,
        startNumber: await nextStartNumber(tx, edition.id),
        qrCode: newCheckInCode(),
        parkingZone: await allocateParkingZone(tx, event),
        issuedAt: planned.invitedAt ?? undefined,
        createdAt: planned.invitedAt ?? undefined,
        checkedIn,
        checkedInAt: checkedIn ? new Date(edition.startsAt.getTime() + ++arrivals * 7 * MINUTE) : null,
      });
      await tx.flush();
    }
    await refreshPublicVehicles(
      tx,
      plan.filter((vehicle) => vehicle.status === 'confirmed').map((vehicle) => vehicle.id),
    );

    return { created: SEED_USERS.length - users.length, updated: users.length, removedVehicles: removed };
  });

  let removedObjects = 0;
  try {
    await deleteKeys(storage.s3, storage.bucket, staleKeys);
    removedObjects = staleKeys.length;
  } catch (error) {
    console.warn(`Old photos could not be removed: ${error instanceof Error ? error.message : error}`);
  }

  return {
    created,
    updated,
    removedVehicles,
    photos: media.length,
    logRows: plan.reduce((sum, vehicle) => sum + vehicle.steps.length, 0),
    removedObjects,
  };
}

async function uploadPhotos(
  storage: SeedStorage,
  vehicle: PlannedVehicle,
  ownerId: string,
): Promise<PlannedMedia[]> {
  const { seed: s } = vehicle;
  const title = brandAndModel(s);
  return Promise.all(
    s.photos.map(async (crop, index) => {
      const photo = await renderVehiclePhoto({
        brand: s.brand,
        model: s.model,
        year: s.year,
        hue: s.hue,
        index,
        count: s.photos.length,
      });
      // Where the app's own uploads go, so the same access rules and cleanup apply.
      const key = `${uploadPrefix(ownerId)}${randomUUID()}.jpg`;
      await putJpeg(storage, key, photo.body);
      return {
        vehicleId: vehicle.id,
        key,
        isHero: index === 0,
        priority: index,
        width: photo.width,
        height: photo.height,
        fileSize: photo.body.length,
        cropX: crop.cropX ?? '50',
        cropY: crop.cropY ?? '50',
        scale: crop.scale ?? '100',
        altText: `${title}, Foto ${index + 1}`,
        createdAt: new Date(vehicle.createdAt.getTime() + (index + 1) * MINUTE),
      };
    }),
  );
}

/**
 * Checks the demo data against the app's own rules (vehicle schema, owner status rules, the staff
 * status update schema) and turns the histories into status log rows with timestamps.
 */
function planVehicles(now: number): PlannedVehicle[] {
  // Daytime on the day `ceil(daysAgo)` days before today (UTC): 07:00 for whole days, the fraction
  // spreads over the next 14 hours. Order is kept and every time lies before today.
  const today = Math.floor(now / DAY) * DAY;
  const at = (daysAgo: number) => {
    const day = Math.ceil(daysAgo);
    const minutes = Math.round((7 + (day - daysAgo) * 14) * 60);
    return new Date(today - day * DAY + minutes * MINUTE);
  };
  const usersByKey = new Map(SEED_USERS.map((user) => [user.key, user]));
  const staff = (role: 'admin' | 'reviewer') => {
    const user = SEED_USERS.find((candidate) => candidate.role === role);
    if (!user) throw new Error(`Seed data: no ${role} account`);
    return user;
  };
  const emails = SEED_USERS.map((user) => user.email);
  if (new Set(emails).size !== emails.length || emails.some((email) => email !== email.toLowerCase())) {
    throw new Error('Seed data: emails must be unique and lower-case');
  }

  return SEED_VEHICLES.map((s) => {
    const title = brandAndModel(s);
    const fail = (problem: string): never => {
      throw new Error(`Seed data, ${title}: ${problem}`);
    };
    const owner = usersByKey.get(s.owner) ?? fail(`unknown owner ${s.owner}`);
    // The vehicle's own fields, checked by the schema the API validates with.
    const {
      owner: _owner,
      hue: _hue,
      photos: _photos,
      createdDaysAgo: _age,
      history: _history,
      ...fields
    } = s;
    const checked = v.safeParse(VehicleSchema, { ...fields, kw: Math.round(s.ps * 0.7355) });
    if (!checked.success) return fail(checked.issues.map((issue) => issue.message).join('; '));
    const {
      consentMedia: _media,
      consentQuartett: _quartett,
      consentContact: _contact,
      ...vehicleFields
    } = checked.output;
    for (const seconds of [s.zeroToHundredS, s.quarterMileS ?? 0]) {
      if (Math.round(seconds * 10) / 10 !== seconds) fail('times have one decimal');
    }
    if (s.photos.length > 10) fail('at most 10 photos');

    let status: VehicleStatus = 'draft';
    const createdAt = at(s.createdDaysAgo);
    let previous = createdAt;
    const steps = s.history.map((step): PlannedStep => {
      if (step.daysAgo <= 0 || at(step.daysAgo) <= previous) fail('history times must increase');
      if (step.to === status) fail(`no change from ${status}`);
      if (step.by === 'owner' && !ownerCanChangeStatus(status, step.to)) {
        fail(`the owner may not move ${status} → ${step.to}`);
      }
      if (step.by === 'owner') {
        const change = v.safeParse(OwnerStatusPatchSchema, { status: step.to, ...SUBMISSION_CONSENTS });
        if (!change.success) fail(change.issues.map((issue) => issue.message).join('; '));
      }
      if (step.by !== 'owner') {
        const update = { status: step.to, oldStatus: status, comment: step.comment, score: step.score };
        const result = v.safeParse(AdminStatusUpdateSchema, update);
        if (!result.success) fail(result.issues.map((issue) => issue.message).join('; '));
      }
      const actor = step.by === 'owner' ? owner : staff(step.by);
      const planned: PlannedStep = {
        oldStatus: status,
        newStatus: step.to,
        actor,
        actorRole: actor.role,
        at: at(step.daysAgo),
        comment: step.comment ?? null,
        score: step.score ?? null,
      };
      status = step.to;
      previous = planned.at;
      return planned;
    });

    return {
      id: randomUUID(),
      seed: s,
      fields: vehicleFields,
      owner,
      consentsGivenAt:
        steps.find((step) => step.newStatus === 'submitted' && step.actor.key === owner.key)?.at ?? null,
      status,
      createdAt,
      updatedAt: steps.at(-1)?.at ?? new Date(createdAt.getTime() + s.photos.length * MINUTE),
      steps,
      invitedAt: steps.findLast((step) => step.newStatus === 'invited')?.at ?? null,
    };
  });
}

/** Accounts exist a while before their first vehicle. */
function userAgeDays(user: SeedUser, plan: PlannedVehicle[]): number {
  if (user.role !== 'user') return 120;
  const ages = plan.filter((vehicle) => vehicle.owner.key === user.key).map((v) => v.seed.createdDaysAgo);
  return Math.max(0, ...ages) + 5;
}

function fullName(user: SeedUser): string {
  return `${user.firstName} ${user.lastName}`;
}

/**
 * The visitors' award of a meeting still to come opens with the meeting (the scheduler opens it at the
 * set moment), so the demo's car pages offer the vote on the day; an award the admin already set,
 * opened or closed stays as it is. Returns what the summary says about it.
 */
async function demoVoting(orm: Orm, edition: Edition, now: Date): Promise<string> {
  const award = await orm.em.fork().findOne(Award, { edition: edition.id });
  const year = edition.year;
  if (award?.closedAt) return `beendet (Ergebnis unter /rueckblick/${year})`;
  if (award?.openedAt) return 'läuft';
  if (now >= edition.endsAt) return 'nicht durchgeführt (das Treffen ist vorbei)';
  if (!award?.opensAt)
    await setAwardMoments(orm.em.fork(), year, { opensAt: edition.startsAt, closesAt: null }, now);
  const opensAt = award?.opensAt ?? edition.startsAt;
  const when = opensAt.toLocaleString('de-DE', {
    timeZone: EVENT_TIMEZONE,
    dateStyle: 'medium',
    timeStyle: 'short',
  });
  return opensAt <= now
    ? `läuft seit ${when}`
    : `öffnet am ${when} (sofort: npm run cli -- award:open ${year})`;
}

/** The demo jury with the seeded judges and admin (seed/jury.ts). */
async function demoJury(orm: Orm, edition: Edition, now: Date): Promise<SeedJuryResult> {
  const emails = SEED_USERS.filter((user) => user.judge || user.role === 'admin').map((user) => user.email);
  const accounts = await orm.em.fork().find(User, { email: { $in: emails } });
  const idOf = (email: string) => accounts.find((user) => user.email === email)!.id;
  return seedJury(orm, edition, now, {
    adminId: idOf(SEED_USERS.find((user) => user.role === 'admin')!.email),
    judgeIds: SEED_USERS.filter((user) => user.judge).map((user) => idOf(user.email)),
  });
}

/** What the summary says about the jury. */
function juryLine(jury: SeedJuryResult, edition: Edition, publicUrl: string): string[] {
  const judges = SEED_USERS.filter((user) => user.judge).map((user) => user.email);
  const head = `Jury ${edition.year}:`;
  switch (jury.state) {
    case 'none':
      return [
        `${head} Klassen und Jurymitglieder kommen ab dem Veranstaltungstag (APP_CLOCK am Tag oder danach)`,
      ];
    case 'failed':
      return [`${head} nicht angelegt: ${jury.message}`];
    case 'classes':
      return [
        `${head} ${jury.classes.join(', ')}; Jurymitglieder ${judges.join(', ')} (Leitung: ${judges[0]}), bewertet wird unter ${publicUrl}/jury`,
      ];
    case 'published':
      return [
        `${head} ${jury.classes.join(', ')} abgeschlossen` +
          (jury.forced.length ? ` (${jury.forced.join(', ')} von einem Admin, ein Auto kam nicht)` : '') +
          `, Ergebnisse veröffentlicht: ${publicUrl}/ergebnisse/${edition.year}`,
        `  Siegerehrung: ${publicUrl}/admin/siegerehrung, Urkunden unter ${publicUrl}/admin/jury, sobald der Worker sie gedruckt hat`,
      ];
  }
}

async function printSummary(
  orm: Orm,
  storage: SeedStorage,
  plan: PlannedVehicle[],
  result: SeedResult,
  day: { edition: Edition; voting: string; jury: SeedJuryResult },
) {
  const em = orm.em.fork();
  const pages = (
    await em.find(
      Invitation,
      { edition: day.edition.id, releasedAt: null, vehicle: { status: 'confirmed' } },
      { orderBy: { startNumber: 'asc' }, limit: 3 },
    )
  ).map(
    (invitation) => `  ${storage.config.publicUrl}/fahrzeuge/${day.edition.year}/${invitation.startNumber}`,
  );
  const inDatabase = new Map(
    await Promise.all(
      VEHICLE_STATUSES.map(async (status) => [status, await em.count(Vehicle, { status })] as const),
    ),
  );
  const seeded = (status: VehicleStatus) => plan.filter((vehicle) => vehicle.status === status).length;

  const logins = SEED_USERS.map((user) => [
    user.email,
    SEED_PASSWORD,
    user.judge ? `${user.role} (Jury)` : user.role,
    fullName(user),
  ]);
  const statusRows = VEHICLE_STATUSES.map((status) => [
    status,
    STATUS_LABELS[status],
    String(seeded(status)),
    String(inDatabase.get(status) ?? 0),
  ]);
  const total = (values: number[]) => String(values.reduce((sum, value) => sum + value, 0));
  statusRows.push([
    'total',
    '',
    String(plan.length),
    total(VEHICLE_STATUSES.map((status) => inDatabase.get(status) ?? 0)),
  ]);

  console.log(
    [
      '',
      'Schlosstreffen demo data is ready.',
      '',
      `  App: ${storage.config.publicUrl}`,
      `  S3:  ${storage.description}, bucket '${storage.bucket}'`,
      '',
      'Logins',
      ...table(['E-Mail', 'Passwort', 'Rolle', 'Name'], logins),
      '',
      'Vehicles per status',
      ...table(['Status', 'Label', 'Seeded', 'In database'], statusRows),
      '',
      `Accounts: ${result.created} created, ${result.updated} updated. ` +
        `Replaced vehicles removed: ${result.removedVehicles}, old photos removed: ${result.removedObjects}.`,
      `Photos uploaded: ${result.photos}. Status log rows written: ${result.logRows}.`,
      '',
      `Car pages (${day.edition.year}), each with its windshield sign under /admin/windschilder:`,
      ...(pages.length ? pages : ['  none yet: no confirmed car has a start number']),
      `Publikumsliebling ${day.edition.year}: ${day.voting}`,
      ...juryLine(day.jury, day.edition, storage.config.publicUrl),
      '',
    ].join('\n'),
  );
}

function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: string[]) =>
    '  ' +
    cells
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)];
}
