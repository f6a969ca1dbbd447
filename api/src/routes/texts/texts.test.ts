import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseSiteConfig, PUBLIC_TEXT_LIMITS, SITE_CONFIG_ELEMENT_ID } from '@schlosstreffen/shared';
import type { PublicTextsView } from '@schlosstreffen/shared/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteAccount } from '../../core/accounts/account-deletion.js';
import { collectAccountData } from '../../core/accounts/data-export.js';
import { DataExport } from '../../core/model/data-export.entity.js';
import { createTestContext, type SignedIn, type TestContext } from '../../testing/index.js';

let t: TestContext;
let admin: SignedIn;
let reviewer: SignedIn;
let webBuild: string;

/**
 * Stands in for the web client's server build (its real rendering of the FAQ is tested in
 * web/src/entry-server.test.tsx): it writes the FAQ it is handed in the site config, or says that
 * the default applies.
 */
const RENDERER = `
const escape = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
export async function render({ nonce, siteConfig }) {
  const faq = siteConfig.texts?.faq;
  // The questions are text; the answers HTML the api formatted (the landing page injects it).
  const items = faq ? faq.map((e) => '<h3>' + escape(e.question) + '</h3><div>' + e.answer + '</div>').join('') : 'Standard-FAQ';
  return { kind: 'page', status: 200, head: '', html: '<section id="faq">' + items + '</section><script nonce="' + nonce + '"></script>' };
}`;

beforeAll(async () => {
  webBuild = await mkdtemp(path.join(tmpdir(), 'web-build-'));
  const webDist = path.join(webBuild, 'dist');
  await mkdir(webDist);
  await mkdir(path.join(webBuild, 'dist-server'));
  await writeFile(path.join(webBuild, 'dist-server', 'entry-server.js'), RENDERER);
  await writeFile(
    path.join(webDist, 'index.html'),
    '<!doctype html><html><head><meta charset="UTF-8" /></head><body><div id="root"></div></body></html>',
  );
  t = await createTestContext({ relay: false, env: { WEB_DIST: webDist } });
  admin = await t.signIn('admin', { firstName: 'Anna', lastName: 'Admin' });
  reviewer = await t.signIn('reviewer');
});
afterAll(async () => {
  await t?.close();
  await rm(webBuild, { recursive: true, force: true });
});

const FAQ = [
  {
    question: 'Gibt es einen Dresscode?',
    answer: 'Nein. **Festes Schuhwerk** empfohlen.\n\n- Parkplatz\n- Einlass',
  },
  { question: 'Darf mein Hund mit?', answer: 'Ja, an der Leine. Mehr im [Datenschutz](/datenschutz).' },
];

async function texts(query = ''): Promise<PublicTextsView> {
  const res = await admin.client.get(`/api/admin/texts${query}`);
  expect(res.status, res.text).toBe(200);
  return res.data as PublicTextsView;
}

async function landing(): Promise<{ html: string; config: ReturnType<typeof parseSiteConfig> }> {
  const res = await fetch(`${t.baseUrl}/`);
  expect(res.status).toBe(200);
  const html = await res.text();
  const block = new RegExp(
    `<script type="application/json" id="${SITE_CONFIG_ELEMENT_ID}">(.*?)</script>`,
  ).exec(html);
  return { html, config: parseSiteConfig(block?.[1]) };
}

describe("'Texte': the public texts per edition", () => {
  it('starts with the default texts everywhere (null), and the landing page gets the default', async () => {
    expect(await texts()).toEqual({
      edition: { year: 2026, applicationDeadline: t.event.applicationDeadline },
      texts: { introduction: null, eventDetails: null, faq: null },
      updatedAt: null,
      updatedBy: null,
    });
    const page = await landing();
    expect(page.config.texts).toEqual({ introduction: null, eventDetails: null, faq: null });
    expect(page.html).toContain('<section id="faq">Standard-FAQ</section>');
  });

  it('saves the parts given, keeps the others, resets one to the default, and names the editor', async () => {
    const saved = await admin.client.put('/api/admin/texts', {
      introduction: '  Ein Tag **voller PS** am Schloss.  ',
      faq: FAQ,
    });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.data).toMatchObject({
      texts: { introduction: 'Ein Tag **voller PS** am Schloss.', eventDetails: null, faq: FAQ },
      updatedBy: 'Anna Admin',
    });
    expect(Date.parse(saved.data.updatedAt)).not.toBeNaN();

    const details = await admin.client.put('/api/admin/texts', { eventDetails: 'Parken im Schlosspark.' });
    expect(details.status, details.text).toBe(200);
    expect((await texts()).texts).toEqual({
      introduction: 'Ein Tag **voller PS** am Schloss.',
      eventDetails: 'Parken im Schlosspark.',
      faq: FAQ,
    });

    // Reviewers read them; only admins change them.
    expect((await reviewer.client.get('/api/admin/texts')).data.texts.faq).toEqual(FAQ);
    expect((await reviewer.client.put('/api/admin/texts', { faq: null })).status).toBe(403);

    // 'Standard wiederherstellen': one part back to the default.
    const reset = await admin.client.put('/api/admin/texts', { introduction: null });
    expect(reset.status, reset.text).toBe(200);
    expect(reset.data.texts).toEqual({
      introduction: null,
      eventDetails: 'Parken im Schlosspark.',
      faq: FAQ,
    });

    // The change is in the audit log as 'settings' of the edition.
    const audit = await admin.client.get('/api/admin/audit?action=texts.update');
    expect(audit.status, audit.text).toBe(200);
    expect(audit.data.entries[0]).toMatchObject({
      action: 'texts.update',
      target: '2026',
      details: { set: [], reset: ['introduction'] },
    });
  });

  it('puts the edited FAQ into the server-rendered landing page at once (no extra request)', async () => {
    const faq = [
      { question: 'Dresscode <neu>?', answer: 'Schick & bequem: **Sneaker** gehen.\n\n<script>x</script>' },
    ];
    expect((await admin.client.put('/api/admin/texts', { faq })).status).toBe(200);
    const page = await landing();
    // The answer formatted and escaped by the api: the page gets no HTML of the admin's.
    const answer =
      '<p>Schick &amp; bequem: <strong>Sneaker</strong> gehen.</p><p>&lt;script&gt;x&lt;/script&gt;</p>';
    expect(page.config.texts?.faq).toEqual([{ question: 'Dresscode <neu>?', answer }]);
    expect(page.html).toContain(`<h3>Dresscode &lt;neu&gt;?</h3><div>${answer}</div>`);
    // The data block cannot be closed by a text.
    expect(page.html).not.toMatch(/<neu>|<script>x/);

    // The deadline placeholder names the current edition's deadline month.
    const deadline = [{ question: 'Bis wann?', answer: 'Bis {Bewerbungsschluss}.' }];
    expect((await admin.client.put('/api/admin/texts', { faq: deadline })).status).toBe(200);
    expect((await landing()).config.texts?.faq).toEqual([
      { question: 'Bis wann?', answer: '<p>Bis März 2026.</p>' },
    ]);

    expect((await admin.client.put('/api/admin/texts', { faq: null })).status).toBe(200);
    expect((await landing()).html).toContain('<section id="faq">Standard-FAQ</section>');
  });

  it('refuses what does not fit, in German, and changes nothing', async () => {
    const before = await texts();
    const tooMany = Array.from({ length: PUBLIC_TEXT_LIMITS.faqItems + 1 }, (_, i) => ({
      question: `Frage ${i}?`,
      answer: 'Antwort.',
    }));
    const refusals: Array<[unknown, string]> = [
      [{}, 'Es wurde kein Text übermittelt.'],
      [{ faq: tooMany }, 'Die FAQ braucht mindestens eine und höchstens 30 Fragen.'],
      [{ faq: [] }, 'Die FAQ braucht mindestens eine und höchstens 30 Fragen.'],
      [
        { faq: [{ question: 'x'.repeat(201), answer: 'Antwort.' }] },
        'Jede Frage braucht einen Text mit höchstens 200 Zeichen.',
      ],
      [
        { faq: [{ question: 'Frage?', answer: '   ' }] },
        'Jede Antwort braucht einen Text mit höchstens 2000 Zeichen.',
      ],
      [
        { faq: [{ question: 'Frage?', answer: 'a'.repeat(2001) }] },
        'Jede Antwort braucht einen Text mit höchstens 2000 Zeichen.',
      ],
      [
        { faq: [{ question: 'Frage?', answer: 'Hier [klicken](javascript:alert(1)).' }] },
        'Links dürfen nur auf http(s)-Adressen oder Seiten der Website („/…“) zeigen.',
      ],
      [
        { introduction: 'Siehe [hier](//fremd.example/x).' },
        'Links dürfen nur auf http(s)-Adressen oder Seiten der Website („/…“) zeigen.',
      ],
      [
        { introduction: 'x'.repeat(1001) },
        'Die Einführung darf höchstens 1000 Zeichen lang sein und nicht leer.',
      ],
      [
        { eventDetails: '' },
        'Der Text der Veranstaltungsdetails darf höchstens 2000 Zeichen lang sein und nicht leer.',
      ],
    ];
    for (const [body, message] of refusals) {
      const res = await admin.client.put('/api/admin/texts', body);
      expect([res.status, res.data.message]).toEqual([400, message]);
    }
    expect(await texts()).toEqual(before);
  });

  it("keeps the texts when their editor's account is deleted, naming the editor 'Gelöschtes Konto'", async () => {
    const editor = await t.signIn('admin', { firstName: 'Erik', lastName: 'Geht' });
    const faq = [{ question: 'Bleibt das?', answer: 'Ja.' }];
    expect((await editor.client.put('/api/admin/texts', { faq })).data.updatedBy).toBe('Erik Geht');
    // The editor's data export names the edition whose texts they changed last.
    const fork = t.orm.em.fork();
    const exportRow = fork.create(DataExport, { user: editor.id, status: 'queued', progress: 0 });
    await fork.flush();
    const data = await collectAccountData(t.orm.em, exportRow.id);
    expect(data!.documents['oeffentliche-texte.json']).toEqual([
      { edition: 'Schlosstreffen 2026', lastChangedAt: expect.any(Date) },
    ]);

    await deleteAccount(t.orm.em.fork(), editor.id);
    const after = await texts();
    expect(after.texts.faq).toEqual(faq);
    expect(after.updatedBy).toBe('Gelöschtes Konto');
    const row = await t.orm.em
      .fork()
      .getConnection()
      .execute('select updated_by from public_text where updated_by = ?', [editor.id]);
    expect(row).toEqual([]);
  });

  it('keeps texts per edition; a new edition starts with the texts of the one it is made from', async () => {
    expect((await admin.client.put('/api/admin/texts', { faq: FAQ })).status).toBe(200);
    const created = await admin.client.post('/api/admin/editions', { year: 2027 });
    expect(created.status, created.text).toBe(201);

    const next = await texts('?edition=2027');
    expect(next.edition.year).toBe(2027);
    expect(next.texts).toEqual((await texts()).texts);

    const own = [{ question: 'Neu 2027?', answer: 'Ja.' }];
    expect((await admin.client.put('/api/admin/texts?edition=2027', { faq: own })).status).toBe(200);
    expect((await texts('?edition=2027')).texts.faq).toEqual(own);
    // The current edition (and the landing page) keep theirs.
    expect((await texts()).texts.faq).toEqual(FAQ);
    expect((await landing()).config.texts?.faq?.map((entry) => entry.question)).toEqual(
      FAQ.map((entry) => entry.question),
    );

    expect((await admin.client.get('/api/admin/texts?edition=2031')).status).toBe(404);
  });
});
