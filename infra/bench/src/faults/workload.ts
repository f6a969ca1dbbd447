/**
 * What people do while the faults happen, through the api as the web client does it: applicants
 * register, apply and upload a photo; an admin reviews, invites, rejects and exports the quartett;
 * invited applicants confirm.
 */
import { makePhoto } from '../photos.js';
import { Client, type Tally } from './client.js';
import type { Deployment } from './deployment.js';

export const PASSWORD = 'fault-suite-password';

export interface Applicant {
  client: Client;
  email: string;
  vehicleId: string;
}

const photos: Buffer[] = [];
/** A handful of distinct photos, made once and reused. */
async function photo(index: number): Promise<Buffer> {
  while (photos.length < 6) photos.push(await makePhoto(photos.length));
  return photos[index % photos.length]!;
}

let counter = 0;
const uniqueEmail = (label: string) => `${label}-${Date.now().toString(36)}-${counter++}@faults.test`;

export async function createAdmin(deployment: Deployment, tally: Tally): Promise<Client> {
  const client = new Client(deployment, tally);
  const email = uniqueEmail('admin');
  await client.persist(
    'POST',
    '/api/auth/register',
    { email, password: PASSWORD, firstName: 'Ada', lastName: 'Admin' },
    201,
  );
  await deployment.query(`update users set role = 'admin' where email = $1`, [email]);
  return client;
}

const VEHICLES = [
  ['BMW', 'M3 E46'],
  ['Audi', 'RS4 B7'],
  ['Porsche', '911 GT3'],
  ['VW', 'Golf R32'],
  ['Opel', 'Calibra'],
  ['Toyota', 'Supra MK4'],
] as const;

/** Registers, applies (submitted, with the wizard's consents) and, with `photo`, uploads one. */
export async function createApplicant(
  deployment: Deployment,
  tally: Tally,
  index: number,
  options: { photo?: boolean } = {},
): Promise<Applicant> {
  const client = new Client(deployment, tally);
  const email = uniqueEmail(`owner${index}`);
  await client.persist(
    'POST',
    '/api/auth/register',
    { email, password: PASSWORD, firstName: 'Lena', lastName: `Nr${index}` },
    201,
  );
  // Only a confirmed address submits: confirmed as an operator would (user:confirm-email).
  await deployment.query(`update users set email_verified = true where email = $1`, [email]);
  const [brand, model] = VEHICLES[index % VEHICLES.length]!;
  const vehicle = await client.persist(
    'POST',
    '/api/vehicles',
    {
      brand,
      model,
      year: 1990 + (index % 30),
      ps: 200 + (index % 500),
      weightKg: 1300,
      topSpeedKmh: 250,
      zeroToHundredS: 5.1,
      status: 'submitted',
      consentMedia: true,
      consentQuartett: true,
      consentContact: true,
    },
    201,
  );
  const applicant = { client, email, vehicleId: vehicle.id as string };
  if (options.photo) await uploadPhoto(applicant, index);
  return applicant;
}

/** Presigns and PUTs a photo to S3, without attaching it; the object path to attach. */
export async function stagePhoto(applicant: Applicant, index: number): Promise<string> {
  const bytes = await photo(index);
  const signed = await applicant.client.expect(
    'POST',
    '/api/objects/upload',
    { filename: `auto-${index}.jpg`, type: 'image/jpeg', size: bytes.length },
    200,
  );
  const put = await fetch(signed.uploadURL, {
    method: 'PUT',
    headers: signed.headers,
    body: new Uint8Array(bytes),
    signal: AbortSignal.timeout(15_000),
  });
  if (!put.ok) throw new Error(`PUT answered ${put.status}`);
  return signed.objectPath as string;
}

/** Presigns, PUTs the bytes to S3 and attaches them, retrying while a service is away. */
export async function uploadPhoto(applicant: Applicant, index: number, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const objectPath = await stagePhoto(applicant, index);
      await applicant.client.persist(
        'POST',
        `/api/vehicles/${applicant.vehicleId}/media`,
        { url: objectPath },
        201,
      );
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}

/**
 * A reviewer's status change. A request that got no answer may still have committed: a 409 then
 * counts as done when the vehicle has the new status.
 */
export async function setStatus(admin: Client, vehicleId: string, from: string, to: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const res = await admin.request('PATCH', `/api/admin/vehicles/${vehicleId}/status`, {
      status: to,
      oldStatus: from,
    });
    if (res.status === 200) return;
    if (res.status === 409) {
      const current = await admin.persist('GET', `/api/vehicles/${vehicleId}`, undefined, 200);
      if (current.status === to) return;
      throw new Error(`status ${from} → ${to} of ${vehicleId}: 409, the vehicle is ${current.status}`);
    }
    if ((res.status !== 503 && res.status >= 0) || Date.now() > deadline) {
      throw new Error(
        `status ${from} → ${to} of ${vehicleId}: ${res.status} ${JSON.stringify(res.data).slice(0, 200)}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** The applicant accepts the invitation (PATCH status confirmed), with the same care. */
export async function confirm(applicant: Applicant): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const res = await applicant.client.request('PATCH', `/api/vehicles/${applicant.vehicleId}`, {
      status: 'confirmed',
    });
    if (res.status === 200) return;
    if (res.status === 409) {
      const current = await applicant.client.persist(
        'GET',
        `/api/vehicles/${applicant.vehicleId}`,
        undefined,
        200,
      );
      if (current.status === 'confirmed') return;
    }
    if ((res.status !== 503 && res.status !== 409 && res.status >= 0) || Date.now() > deadline) {
      throw new Error(
        `confirm ${applicant.vehicleId}: ${res.status} ${JSON.stringify(res.data).slice(0, 200)}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** Runs `task` over the items with at most `parallel` at once. */
export async function inParallel<T>(
  items: T[],
  parallel: number,
  task: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let nextIndex = 0;
  await Promise.all(
    Array.from({ length: Math.min(parallel, items.length) }, async () => {
      while (nextIndex < items.length) {
        const index = nextIndex++;
        await task(items[index]!, index);
      }
    }),
  );
}
