import { defaultMailText } from '@schlosstreffen/shared';
import type { MailSampleView, MailTemplateList, MailTemplateView } from '@schlosstreffen/shared/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteAccount } from '../../core/accounts/account-deletion.js';
import { collectAccountData } from '../../core/accounts/data-export.js';
import { DataExport } from '../../core/model/data-export.entity.js';
import { Outbox } from '../../core/model/outbox.entity.js';
import { insertSubmittedApplications } from '../../testing/applications.js';
import { createTestContext, type SignedIn, type TestContext } from '../../testing/index.js';

let t: TestContext;
let admin: SignedIn;

beforeAll(async () => {
  t = await createTestContext({ relay: false });
  admin = await t.signIn('admin', { firstName: 'Anna', lastName: 'Admin' });
});
afterAll(async () => {
  await t?.close();
});

async function view(mail: string, query = ''): Promise<MailTemplateView> {
  const res = await admin.client.get(`/api/admin/mail-templates/${mail}${query}`);
  expect(res.status, res.text).toBe(200);
  return res.data as MailTemplateView;
}

const REJECTION = {
  subject: 'Absage für {fahrzeug} – {veranstaltung}',
  body: 'Hallo {vorname},\n\nleider reicht es für **{fahrzeug}** diesmal nicht.\n\n[Zum Dashboard]({dashboard_link})',
};

describe("'E-Mail-Vorlagen': the mails' texts per edition", () => {
  it('starts with every mail at its default text (version 0)', async () => {
    const list = (await admin.client.get('/api/admin/mail-templates')).data as MailTemplateList;
    expect(list.edition.year).toBe(2026);
    expect(list.mails).toHaveLength(27);
    expect(list.mails.every((mail) => mail.version === 0 && mail.isDefault && mail.changedBy === null)).toBe(
      true,
    );
    expect(await view('invitation')).toMatchObject({
      key: 'invitation',
      version: 0,
      ...defaultMailText('invitation'),
      versions: [],
    });
    expect((await admin.client.get('/api/admin/mail-templates/gibt-es-nicht')).data.message).toBe(
      'Diese E-Mail-Vorlage gibt es nicht.',
    );
  });

  it('saves a version per change with who and when, refuses a stale one and restores the default', async () => {
    const saved = await admin.client.put('/api/admin/mail-templates/application-rejected', {
      ...REJECTION,
      baseVersion: 0,
    });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.data).toMatchObject({ version: 1, isDefault: false, changedBy: 'Anna Admin', ...REJECTION });

    // A save from an older version would drop the one in between.
    const stale = await admin.client.put('/api/admin/mail-templates/application-rejected', {
      ...REJECTION,
      subject: 'Anders',
      baseVersion: 0,
    });
    expect([stale.status, stale.data.message]).toEqual([
      409,
      'Die Vorlage wurde inzwischen geändert (Version 1 von Anna Admin). Lade sie neu und übertrage deine Änderungen.',
    ]);

    const restored = await admin.client.post('/api/admin/mail-templates/application-rejected/restore', {
      baseVersion: 1,
    });
    expect(restored.status, restored.text).toBe(200);
    const now = await view('application-rejected');
    expect(now).toMatchObject({ version: 2, isDefault: true, ...defaultMailText('application-rejected') });
    expect(now.versions.map((v) => [v.version, v.isDefault, v.createdBy])).toEqual([
      [2, true, 'Anna Admin'],
      [1, false, 'Anna Admin'],
    ]);
    const list = (await admin.client.get('/api/admin/mail-templates')).data as MailTemplateList;
    expect(list.mails.find((mail) => mail.key === 'application-rejected')).toMatchObject({
      version: 2,
      isDefault: true,
    });
  });

  it('refuses unknown and missing required placeholders in German, with every problem, and saves nothing', async () => {
    const text = defaultMailText('invitation');
    const refusals: Array<[Record<string, unknown>, string]> = [
      [
        { ...text, body: text.body.replace('[Teilnahme bestätigen]({link})', 'Bitte bestätigen.') },
        'Der Platzhalter {link} fehlt (Link zum Bestätigen der Teilnahme). Ohne ihn erfüllt diese E-Mail ihren Zweck nicht.',
      ],
      [
        { ...text, subject: 'Startnummer {startnr}' },
        'Den Platzhalter {startnr} gibt es in dieser E-Mail nicht. Möglich sind: {vorname}, {fahrzeug}, {dashboard_link}, {startnummer}, {parkzone}, {bestaetigen_bis}, {link}, {absagen_link}, {ausgabe}, {veranstaltung}, {datum}, {uhrzeit}, {ort}.',
      ],
      [{ ...text, subject: '' }, 'Bitte gib einen Betreff ein.'],
      [{ subject: 1, body: text.body }, 'Betreff und Text müssen als Text übermittelt werden.'],
    ];
    for (const [input, message] of refusals) {
      const res = await admin.client.put('/api/admin/mail-templates/invitation', {
        ...input,
        baseVersion: 0,
      });
      expect([res.status, res.data.message]).toEqual([400, message]);
    }
    const both = await admin.client.put('/api/admin/mail-templates/invitation', {
      subject: '{x}',
      body: 'ohne Link',
      baseVersion: 0,
    });
    expect(both.data.issues.map((issue: { field: string }) => issue.field)).toEqual(['subject', 'body']);
    expect((await view('invitation')).version).toBe(0);
  });

  it('refuses a text placeholder as a link’s target or part of an address, and a name in a mail that names nobody', async () => {
    const invitation = defaultMailText('invitation');
    const refusals: Array<[string, Record<string, unknown>, string]> = [
      [
        'invitation',
        { ...invitation, body: `${invitation.body}\n\n[Dein Fahrzeug ansehen]({fahrzeug})` },
        'Der Platzhalter {fahrzeug} steht für Text und kann kein Linkziel sein. Ein Link führt nur zu einer festen Adresse oder zu einem Link-Platzhalter: {dashboard_link}, {link}, {absagen_link}.',
      ],
      [
        'invitation',
        { ...invitation, body: `${invitation.body}\n\n[x](https://a.example/{vorname})` },
        'Der Platzhalter {vorname} steht für Text und kann kein Linkziel sein. Ein Link führt nur zu einer festen Adresse oder zu einem Link-Platzhalter: {dashboard_link}, {link}, {absagen_link}.',
      ],
      [
        'invitation',
        { ...invitation, body: `${invitation.body}\n\nMehr: https://a.example/{vorname}` },
        'Der Platzhalter {vorname} steht für Text und kann nicht Teil einer Internetadresse sein. Trenne ihn mit einem Leerzeichen von der Adresse.',
      ],
      [
        'visitor-confirmation',
        { ...defaultMailText('visitor-confirmation'), subject: 'Hallo {vorname}' },
        'Den Platzhalter {vorname} gibt es in dieser E-Mail nicht: Sie kann an eine Adresse gehen, deren Inhaber sie nicht angefordert hat, und nennt deshalb niemanden und wiederholt nichts, was jemand eingegeben hat. Möglich sind: {link}, {abmelden_link}, {ausgabe}, {veranstaltung}, {datum}, {uhrzeit}, {ort}.',
      ],
    ];
    for (const [mail, input, message] of refusals) {
      const res = await admin.client.put(`/api/admin/mail-templates/${mail}`, { ...input, baseVersion: 0 });
      expect([res.status, res.data.message]).toEqual([400, message]);
      expect((await view(mail)).version).toBe(0);
    }
  });

  it("fills a preview with a chosen application's data, and sends the draft as a test to the admin", async () => {
    const [application] = await insertSubmittedApplications(t, 1, { label: 'vorschau', brand: 'Audi' });
    const sample = (
      await admin.client.get(`/api/admin/mail-templates/invitation/sample?fahrzeug=${application!.id}`)
    ).data as MailSampleView;
    expect(sample.vehicle).toEqual({ id: application!.id, title: 'Audi Kadett 0' });
    expect(sample.values).toMatchObject({
      vorname: 'Vorname0',
      fahrzeug: 'Audi Kadett 0',
      startnummer: '17',
      bestaetigen_bis: 'zum Beginn des Treffens',
      ausgabe: '2026',
      link: expect.stringMatching(/\/einladung\?token=vorschau$/),
    });
    expect(sample.vehicles).toContainEqual({
      id: application!.id,
      title: 'Audi Kadett 0',
      status: 'submitted',
    });
    const madeUp = (await admin.client.get('/api/admin/mail-templates/invitation/sample'))
      .data as MailSampleView;
    expect([madeUp.vehicle, madeUp.values.vorname]).toEqual([null, 'Max']);
    const unknown = await admin.client.get(
      '/api/admin/mail-templates/invitation/sample?fahrzeug=00000000-0000-4000-8000-000000000000',
    );
    expect([unknown.status, unknown.data.message]).toEqual([
      400,
      'Die gewählte Bewerbung gibt es in dieser Ausgabe nicht.',
    ]);

    const test = await admin.client.post('/api/admin/mail-templates/application-rejected/test', {
      ...REJECTION,
      vehicleId: application!.id,
    });
    expect([test.status, test.data.message]).toEqual([202, `Die Testmail an ${admin.email} ist unterwegs.`]);
    const [row] = await t.orm.em
      .fork()
      .find(Outbox, { job: 'email.send' }, { orderBy: { createdAt: 'desc' }, limit: 1 });
    expect(row!.payload).toMatchObject({
      template: 'application-rejected',
      to: admin.email,
      props: { firstName: 'Vorname0', vehicleTitle: 'Audi Kadett 0' },
      editionId: t.event.edition.id,
      draft: { subject: `[Test] ${REJECTION.subject}`, body: REJECTION.body },
    });
    // Not about the application: it stays out of the application's mails.
    expect(row!.payload).not.toHaveProperty('vehicleId');
    const refused = await admin.client.post('/api/admin/mail-templates/invitation/test', {
      subject: 'x',
      body: 'ohne Link',
    });
    expect(refused.status).toBe(400);
  });

  it("the staff's bulk preview announces each owner's subject as the edition's text stands", async () => {
    const [application] = await insertSubmittedApplications(t, 1, { label: 'betreff', brand: 'Saab' });
    const { version } = await view('application-waitlist');
    const saved = await admin.client.put('/api/admin/mail-templates/application-waitlist', {
      subject: '{vorname}, {fahrzeug} steht auf der Warteliste {ausgabe}',
      body: 'Hallo {vorname}, bitte warte.',
      baseVersion: version,
    });
    expect(saved.status, saved.text).toBe(200);
    const preview = await admin.client.post('/api/admin/vehicles/bulk-status/preview', {
      status: 'waitlist',
      ids: [application!.id],
    });
    expect(preview.status, preview.text).toBe(200);
    expect(preview.data.changes[0].mail).toEqual({
      template: 'application-waitlist',
      kind: 'Warteliste',
      subject: 'Vorname0, Saab Kadett 0 steht auf der Warteliste 2026',
    });
  });

  it("keeps versions when their editor's account goes ('Gelöschtes Konto'), after listing them in the export", async () => {
    const editor = await t.signIn('admin', { firstName: 'Erik', lastName: 'Geht' });
    const { version } = await view('password-changed');
    const res = await editor.client.put('/api/admin/mail-templates/password-changed', {
      subject: 'Passwort neu',
      body: 'Hallo {vorname}, neu.',
      baseVersion: version,
    });
    expect(res.status, res.text).toBe(200);
    const fork = t.orm.em.fork();
    const exportRow = fork.create(DataExport, { user: editor.id, status: 'queued', progress: 0 });
    await fork.flush();
    const data = await collectAccountData(t.orm.em, exportRow.id);
    expect(data!.documents['e-mail-vorlagen.json']).toEqual([
      {
        edition: 'Schlosstreffen 2026',
        mail: 'password-changed',
        version: version + 1,
        restoredDefault: false,
        savedAt: expect.any(Date),
      },
    ]);
    await deleteAccount(t.orm.em.fork(), editor.id);
    const after = await view('password-changed');
    expect([after.subject, after.changedBy]).toEqual(['Passwort neu', 'Gelöschtes Konto']);
  });

  it('keeps texts per edition; a new edition starts with the texts its template edition uses', async () => {
    const { version } = await view('application-confirmed');
    const own = { subject: 'Dabei! {ausgabe}', body: 'Hallo {vorname}, du bist dabei.' };
    expect(
      (
        await admin.client.put('/api/admin/mail-templates/application-confirmed', {
          ...own,
          baseVersion: version,
        })
      ).status,
    ).toBe(200);
    const created = await admin.client.post('/api/admin/editions', { year: 2027 });
    expect(created.status, created.text).toBe(201);
    const next = await view('application-confirmed', '?edition=2027');
    expect(next).toMatchObject({ edition: { year: 2027 }, version: 1, ...own });
    // A restored default is not carried over as a version of its own.
    expect((await view('application-rejected', '?edition=2027')).version).toBe(0);
    const changed = await admin.client.put('/api/admin/mail-templates/application-confirmed?edition=2027', {
      subject: '2027',
      body: 'Hallo {vorname}.',
      baseVersion: 1,
    });
    expect(changed.status, changed.text).toBe(200);
    expect((await view('application-confirmed')).subject).toBe(own.subject);
  });
});
