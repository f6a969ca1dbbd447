import { randomBytes } from 'node:crypto';
import { EmailLog } from '@schlosstreffen/api/core';
import {
  changeStatus,
  createTestContext,
  createVehicle,
  signInConfirmed,
  type SignedIn,
  type TestContext,
} from '@schlosstreffen/api/testing';
import type { VehicleMails } from '@schlosstreffen/shared/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkersWithPeer, type PeerWorkers } from '../../testing.js';

/**
 * An admin's text reaches the next mail: the rejection mail edited with placeholders goes out with
 * the values filled in, over a real SMTP conversation, and the email log names the version.
 */

const RUN = randomBytes(3).toString('hex');

let t: TestContext;
let workers: PeerWorkers;
let admin: SignedIn;

beforeAll(async () => {
  t = await createTestContext();
  workers = await startWorkersWithPeer(t);
  admin = await t.signIn('admin', { firstName: 'Anna' });
}, 60_000);

afterAll(async () => {
  await workers?.close();
  await t?.close();
});

/** A received mail's text part, quoted-printable undone. */
const decoded = (data: string) =>
  data.replace(/=\r?\n/g, '').replace(/(=[0-9A-F]{2})+/g, (run) =>
    Buffer.from(
      run
        .split('=')
        .slice(1)
        .map((hex) => parseInt(hex, 16)),
    ).toString('utf8'),
  );

const logOf = (vehicleId: string, template: string) =>
  t.orm.em.fork().findOne(EmailLog, { vehicleId, template }, { orderBy: { createdAt: 'desc' } });

describe("the edition's mail texts", () => {
  it('the next rejection mail carries the edited text with its values, and the log names the version', async () => {
    const address = `clara-${RUN}@example.de`;
    const owner = await signInConfirmed(t, { firstName: 'Clara', email: address });
    const vehicle = await createVehicle(owner.client, {
      status: 'submitted',
      brand: 'Volkswagen',
      model: 'Golf II GTI',
      name: null,
    });
    await expect
      .poll(async () => (await logOf(vehicle.id, 'application-received'))?.status, { timeout: 15_000 })
      .toBe('sent');
    // The receipt went out with the default text.
    expect((await logOf(vehicle.id, 'application-received'))?.templateVersion).toBe(0);

    const saved = await admin.client.put('/api/admin/mail-templates/application-rejected', {
      subject: 'Absage für {fahrzeug} ({ausgabe})',
      body: 'Hallo {vorname},\n\ndiesmal hat es für **{fahrzeug}** nicht gereicht.\n\n- Treffen: {veranstaltung}\n- Datum: {datum}\n\n[Zum Dashboard]({dashboard_link})',
      baseVersion: 0,
    });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.data.version).toBe(1);

    await changeStatus(admin, vehicle.id, 'submitted', 'rejected');
    await expect
      .poll(async () => (await logOf(vehicle.id, 'application-rejected'))?.status, { timeout: 15_000 })
      .toBe('sent');
    const log = await logOf(vehicle.id, 'application-rejected');
    expect(log).toMatchObject({
      subject: 'Absage für Volkswagen Golf II GTI (2026)',
      templateVersion: 1,
      templateEditionId: t.event.edition.id,
    });

    const mail = workers.peer.received.filter((received) => received.to.includes(address)).at(-1)!;
    const text = decoded(mail.data);
    expect(text).toContain('Hallo Clara,');
    expect(text).toContain('diesmal hat es für <strong>Volkswagen Golf II GTI</strong> nicht gereicht.');
    expect(text).toContain(`<li style="margin:0 0 4px">Treffen: ${t.event.name}</li>`);
    expect(text).toMatch(/Datum: \w+, \d{1,2}\. \w+ 2026/);
    expect(text).not.toMatch(/\{[a-z_]+\}/);
    expect(text).not.toContain('Leider können wir dir diesmal keinen Platz anbieten');

    // The admin's dialog says which version the mail was written with.
    const listed = (await admin.client.get(`/api/admin/vehicles/${vehicle.id}/emails`)).data as VehicleMails;
    expect(listed.mails.map((m) => [m.name, m.templateVersion])).toEqual([
      ['Absage', 1],
      ['Eingangsbestätigung', 0],
    ]);
  });
});
