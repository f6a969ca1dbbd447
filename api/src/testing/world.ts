import { randomUUID } from 'node:crypto';
import { currentEditionId } from './editions.js';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { DataExport } from '../core/model/data-export.entity.js';
import { User } from '../core/model/user.entity.js';
import { Media } from '../core/model/media.entity.js';
import { QuartettSet } from '../core/model/quartett-set.entity.js';
import { accountExportKey, exportKey, fullKey, newUploadKey, objectPathOf } from '../core/storage/objects.js';
import { createS3Client } from '../core/storage/s3.js';
import { Vehicle } from '../core/model/vehicle.entity.js';
import { JuryClass } from '../core/model/jury.entity.js';
import { insertJudge } from '../core/jury/jury.queries.js';
import type { TestContext } from './test-context.js';
import { createVehicle } from './factories.js';
import type { TestClient } from './http-client.js';

/**
 * Who sends a request: nobody, the applicant, another applicant, a reviewer, an admin, a
 * reviewer who owns the application the request is about (`staffOwner`: the matrix gives them a
 * world of their own vehicles), and a judge of the current edition who is nothing more (`judge`: an
 * account of the role 'user', head judge of the world's class).
 */
export const ACTORS = ['anon', 'owner', 'other', 'reviewer', 'admin', 'staffOwner', 'judge'] as const;
export type Actor = (typeof ACTORS)[number];
export type SignedInActor = Exclude<Actor, 'anon'>;

export interface Account {
  id: string;
  email: string;
  client: TestClient;
}

/** The vehicles of an applicant, as the world makes them. */
export interface Owned {
  draft: string;
  submitted: string;
  confirmed: string;
  mediaOfSubmitted: string;
  /** Object paths: an image of the submitted and of the confirmed vehicle. */
  submittedImage: string;
  confirmedImage: string;
}

/**
 * The accounts of the signed-in actors and what the owner has: a world to try routes in; `staffOwned`
 * is the same for the reviewer who applied too (`staffOwner`).
 */
export interface World extends Record<SignedInActor, Account>, Owned {
  staffOwned: Owned;
  /** The current edition's jury class: every confirmed car, the judge its head judge. */
  juryClass: string;
  quartettSet: string;
  quartettPdf: string;
  /** The owner's ready data export. */
  accountExport: string;
  /** A raw upload of the owner's (never served). */
  rawUpload: string;
}

const ROLE_OF = {
  owner: 'user',
  other: 'user',
  reviewer: 'reviewer',
  admin: 'admin',
  staffOwner: 'reviewer',
  judge: 'user',
} as const;

/**
 * A new account of the actor's role, signed in on a client of its own; a judge judges every class of
 * the current edition.
 */
export async function signInAs(t: TestContext, actor: SignedInActor): Promise<Account> {
  const { client, id, email } = await t.signIn(ROLE_OF[actor], { firstName: 'Mara', lastName: 'Test' });
  if (actor === 'judge') {
    const em = t.orm.em.fork();
    const editionId = await currentEditionId(em);
    const classes = await em.find(JuryClass, { edition: editionId });
    await insertJudge(
      em,
      editionId,
      id,
      classes.map((c) => c.id),
    );
  }
  return { client, id, email };
}

/** The current edition's class, judged by the judge (its head) and the reviewer. */
async function insertJuryClass(t: TestContext, judges: Account[]): Promise<string> {
  const em = t.orm.em.fork();
  const editionId = await currentEditionId(em);
  const juryClass = em.create(JuryClass, {
    edition: editionId,
    name: 'Bester Umbau',
    position: 1,
    scope: { zones: [], categories: [], yearFrom: null, yearTo: null },
    criteria: [{ id: 'k-gesamt', name: 'Gesamteindruck', weight: 1, max: 10 }],
    places: 1,
    headJudge: judges[0]!.id,
  });
  await em.flush();
  for (const judge of judges) await insertJudge(em, editionId, judge.id, [juryClass.id]);
  return juryClass.id;
}

export async function putObject(t: TestContext, key: string, contentType: string): Promise<void> {
  await createS3Client(t.config.s3).send(
    new PutObjectCommand({
      Bucket: t.config.s3.bucket,
      Key: key,
      Body: Buffer.from('x'),
      ContentType: contentType,
    }),
  );
}

/** An image row with its clean full-size object, as the worker leaves it. */
export async function insertImage(t: TestContext, vehicleId: string): Promise<{ id: string; path: string }> {
  const id = randomUUID();
  const key = fullKey(id, 'jpg');
  await putObject(t, key, 'image/jpeg');
  const em = t.orm.em.fork();
  em.create(Media, { id, vehicle: em.getReference(Vehicle, vehicleId), url: objectPathOf(key) });
  await em.flush();
  return { id, path: objectPathOf(key) };
}

/** A status change by an admin; fails the test when refused. */
export async function changeStatus(
  admin: Account,
  vehicleId: string,
  from: string,
  to: string,
): Promise<void> {
  const res = await admin.client.patch(`/api/admin/vehicles/${vehicleId}/status`, {
    status: to,
    oldStatus: from,
  });
  if (res.status !== 200) throw new Error(`status change refused: ${res.status} ${res.text}`);
}

/** A ready quartett set without cards (releasing it locks no vehicle). */
export async function insertReadySet(t: TestContext, adminId: string): Promise<QuartettSet> {
  const em = t.orm.em.fork();
  const set = em.create(QuartettSet, {
    edition: await currentEditionId(em),
    title: 'Druck',
    status: 'ready',
    createdBy: adminId,
  });
  await em.flush();
  // The version comes from a database sequence.
  await em.refresh(set);
  return set;
}

/** An applicant's draft, submitted and confirmed vehicle, the latter two with an image each. */
async function ownedBy(t: TestContext, owner: Account, admin: Account): Promise<Owned> {
  const draft = (await createVehicle(owner.client)).id;
  const submitted = (await createVehicle(owner.client, { status: 'submitted' })).id;
  const confirmed = (await createVehicle(owner.client, { status: 'submitted' })).id;
  await changeStatus(admin, confirmed, 'submitted', 'confirmed');
  const image = await insertImage(t, submitted);
  const confirmedImage = (await insertImage(t, confirmed)).path;
  return {
    draft,
    submitted,
    confirmed,
    mediaOfSubmitted: image.id,
    submittedImage: image.path,
    confirmedImage,
  };
}

export async function createWorld(t: TestContext): Promise<World> {
  const [owner, other, reviewer, admin, staffOwner, judge] = await Promise.all([
    signInAs(t, 'owner'),
    signInAs(t, 'other'),
    signInAs(t, 'reviewer'),
    signInAs(t, 'admin'),
    signInAs(t, 'staffOwner'),
    signInAs(t, 'judge'),
  ]);
  const juryClass = await insertJuryClass(t, [judge, reviewer]);
  const owned = await ownedBy(t, owner, admin);
  const staffOwned = await ownedBy(t, staffOwner, admin);

  const em = t.orm.em.fork();
  const set = await insertReadySet(t, admin.id);
  const pdf = exportKey(set.version, set.id);
  await putObject(t, pdf, 'application/pdf');
  await em.nativeUpdate(QuartettSet, { id: set.id }, { exportFileUrl: objectPathOf(pdf) });
  const exportId = randomUUID();
  await putObject(t, accountExportKey(exportId), 'application/zip');
  em.create(DataExport, {
    id: exportId,
    user: em.getReference(User, owner.id),
    status: 'ready',
    progress: 100,
    objectKey: accountExportKey(exportId),
    finishedAt: new Date(),
    expiresAt: new Date(Date.now() + 3600_000),
  });
  await em.flush();
  const upload = newUploadKey(owner.id, 'image/jpeg');
  await putObject(t, upload, 'image/jpeg');

  return {
    owner,
    other,
    reviewer,
    admin,
    staffOwner,
    judge,
    ...owned,
    staffOwned,
    juryClass,
    quartettSet: set.id,
    quartettPdf: objectPathOf(pdf),
    accountExport: objectPathOf(accountExportKey(exportId)),
    rawUpload: objectPathOf(upload),
  };
}
