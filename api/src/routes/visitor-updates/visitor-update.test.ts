import { randomUUID } from 'node:crypto';
import { VISITOR_UPDATE_MESSAGES } from '@schlosstreffen/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Outbox } from '../../core/model/outbox.entity.js';
import { createVisitorToken } from '../../core/visitors/visitor.service.js';
import {
  claimNextRecipient,
  recordPreview,
  recordRecipient,
} from '../../core/visitor-updates/visitor-updates.js';
import { createTestContext, type SignedIn, type TestContext } from '../../testing/index.js';

let t: TestContext;
let admin: SignedIn;

beforeAll(async () => {
  t = await createTestContext({ relay: false });
  admin = await t.signIn('admin', { firstName: 'Anna' });
});
afterAll(() => t?.close());
beforeEach(async () => {
  const em = t.orm.em.fork();
  await em.nativeDelete(Outbox, {});
  await em.getConnection().execute('delete from visitor_update');
  await em.getConnection().execute('delete from visitor_registration');
});

const draft = { subject: 'Der Zeitplan steht', body: 'Die Tore öffnen um 10 Uhr.\n\nParken am Nordtor.' };
const jobs = async (name: string) =>
  (await t.orm.em.fork().find(Outbox, { job: name })).map((row) => row.payload);

async function visitors(states: Array<'confirmed' | 'pending' | 'unsubscribed'>): Promise<string[]> {
  const ids: string[] = [];
  for (const state of states) {
    const id = randomUUID();
    await t.orm.em.getConnection().execute(
      `insert into visitor_registration (id, edition_id, email, mailbox, first_name, last_name, confirmed_at,
                                         unsubscribed_at, created_at)
       values (?, ?, ?, ?, 'Vera', 'Besuch', ?, ?, now())`,
      [
        id,
        t.event.edition.id,
        `${id}@besuch.test`,
        `${id}@besuch.test`,
        state === 'pending' ? null : new Date(),
        state === 'unsubscribed' ? new Date() : null,
      ],
    );
    ids.push(id);
  }
  return ids;
}

describe('Besucher-Updates', () => {
  it('a draft gets a preview job per revision; the preview shows once rendered for the current revision', async () => {
    const created = await admin.client.post('/api/admin/visitor-updates', draft);
    expect(created.status, created.text).toBe(201);
    expect(created.data).toMatchObject({
      ...draft,
      status: 'draft',
      statusLabel: 'Entwurf',
      revision: 1,
      previewReady: false,
    });
    const id = created.data.id as string;
    expect(await jobs('visitor-update.preview')).toEqual([{ updateId: id, revision: 1 }]);

    const edited = await admin.client.patch(`/api/admin/visitor-updates/${id}`, { ...draft, subject: 'Neu' });
    expect(edited.data).toMatchObject({ subject: 'Neu', revision: 2 });
    expect(await recordPreview(t.orm.em, id, 1, '<p>alt</p>')).toBe(false);
    expect((await admin.client.get(`/api/admin/visitor-updates/${id}`)).data.previewReady).toBe(false);
    expect((await admin.client.get(`/api/admin/visitor-updates/${id}/preview`)).status).toBe(404);
    expect(await recordPreview(t.orm.em, id, 2, '<p style="color:red">neu</p>')).toBe(true);
    expect((await admin.client.get(`/api/admin/visitor-updates/${id}`)).data.previewReady).toBe(true);
    const preview = await admin.client.get(`/api/admin/visitor-updates/${id}/preview`);
    expect(preview.status).toBe(200);
    expect(preview.text).toBe('<p style="color:red">neu</p>');
    expect(preview.headers.get('content-type')).toBe('text/html; charset=utf-8');
    // Its own policy: the mail's inline styles, no scripts, framed by our pages only.
    expect(preview.headers.get('content-security-policy')).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'self'; sandbox",
    );
    expect(preview.headers.get('x-frame-options')).toBe('SAMEORIGIN');
  });

  it('refuses an empty subject or text in German', async () => {
    const res = await admin.client.post('/api/admin/visitor-updates', { subject: '  ', body: '' });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.data)).toContain(VISITOR_UPDATE_MESSAGES.subjectRequired);
    expect(JSON.stringify(res.data)).toContain(VISITOR_UPDATE_MESSAGES.bodyRequired);
  });

  it('sends a test to the admin only, marked as a test', async () => {
    const { data } = await admin.client.post('/api/admin/visitor-updates', draft);
    const res = await admin.client.post(`/api/admin/visitor-updates/${data.id}/test`, {});
    expect(res.status).toBe(202);
    const mails = await jobs('email.send');
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({
      template: 'visitor-update',
      to: admin.email,
      props: { firstName: 'Anna', subject: draft.subject, body: draft.body, test: true },
    });
  });

  it('starts once, for confirmed visitors who did not unsubscribe; a sent update cannot change', async () => {
    const { data } = await admin.client.post('/api/admin/visitor-updates', draft);
    const none = await admin.client.post(`/api/admin/visitor-updates/${data.id}/send`, {});
    expect(none.status).toBe(409);
    expect(none.data.message).toBe(VISITOR_UPDATE_MESSAGES.noRecipients);

    const [first] = await visitors(['confirmed', 'confirmed', 'confirmed', 'pending', 'unsubscribed']);
    expect((await admin.client.get('/api/admin/visitor-updates')).data.recipients).toBe(3);
    const started = await admin.client.post(`/api/admin/visitor-updates/${data.id}/send`, {});
    expect(started.status, started.text).toBe(202);
    expect(started.data).toMatchObject({
      status: 'sending',
      total: 3,
      counts: { pending: 3, sent: 0 },
      progress: 0,
    });
    expect(await jobs('visitor-update.send')).toEqual([{ updateId: data.id }]);

    expect((await admin.client.post(`/api/admin/visitor-updates/${data.id}/send`, {})).status).toBe(409);
    const edit = await admin.client.patch(`/api/admin/visitor-updates/${data.id}`, draft);
    expect(edit.status).toBe(409);
    expect(edit.data.message).toBe(VISITOR_UPDATE_MESSAGES.notDraft);
    expect(await jobs('visitor-update.send')).toHaveLength(1);

    // Unsubscribing meanwhile removes the registration; its recipient row keeps no link to it.
    const unsubscribe = await t.client().post('/api/visitor-registrations/unsubscribe', {
      token: createVisitorToken(t.config.sessionSecret, first!, 'unsubscribe'),
    });
    expect(unsubscribe.status).toBe(200);
    const rows = await t.orm.em
      .getConnection()
      .execute<Array<{ registration_id: string | null }>>(
        `select registration_id from visitor_update_recipient where update_id = ?`,
        [data.id],
      );
    expect(rows.filter((row) => row.registration_id === null)).toHaveLength(1);

    const history = await admin.client.get('/api/admin/visitor-updates');
    expect(history.data.updates).toEqual([
      expect.objectContaining({ id: data.id, statusLabel: 'Wird gesendet', total: 3 }),
    ]);
  });

  it('a recipient whose mail fails is tried again, and after three tries counts as failed', async () => {
    const { data } = await admin.client.post('/api/admin/visitor-updates', draft);
    await visitors(['confirmed']);
    await admin.client.post(`/api/admin/visitor-updates/${data.id}/send`, {});
    const links = { publicUrl: t.config.publicUrl, secret: t.config.sessionSecret };
    for (const expected of [
      { pending: 1, failed: 0 },
      { pending: 1, failed: 0 },
      { pending: 0, failed: 1 },
    ]) {
      const claimed = await claimNextRecipient(t.orm.em, data.id, new Date(), links);
      expect(claimed?.visitor?.unsubscribeUrl).toContain('/besucher/abmelden?token=');
      await recordRecipient(t.orm.em, claimed!.id, { state: 'failed', error: '451 try again later' });
      const view = await admin.client.get(`/api/admin/visitor-updates/${data.id}`);
      expect(view.data.counts).toMatchObject(expected);
    }
    expect(await claimNextRecipient(t.orm.em, data.id, new Date(), links)).toBeNull();
  });

  it('is for admins only', async () => {
    const reviewer = await t.signIn('reviewer');
    expect((await reviewer.client.get('/api/admin/visitor-updates')).status).toBe(403);
    expect((await reviewer.client.post('/api/admin/visitor-updates', draft)).status).toBe(403);
    expect((await t.client().get('/api/admin/visitor-updates')).status).toBe(401);
  });
});
