// @vitest-environment node
import {
  DEFAULT_SITE_CONFIG,
  readsNoQuery,
  renderPublicTexts,
  type RenderResult,
} from '@schlosstreffen/shared';
import type { JuryResults } from '@schlosstreffen/shared/api';
import { describe, expect, it } from 'vitest';
import { isPage, render } from './entry-server';

const siteConfig = {
  ...DEFAULT_SITE_CONFIG,
  eventName: 'Schlosstreffen <2027>',
  publicUrl: 'https://schloss.example',
};

async function renderPage(url: string): Promise<Extract<RenderResult, { kind: 'page' }>> {
  const result = await render({ url, nonce: 'bm9uY2U=', siteConfig, user: null });
  if (result.kind !== 'page') throw new Error(`${url}: ${result.kind}`);
  return result;
}

describe('server rendering', () => {
  it("renders the route's head() for the document's head, escaped, and keeps it out of the page's markup", async () => {
    const landing = await renderPage('/');
    expect(landing.head).toContain('<title>Schlosstreffen &lt;2027&gt; – Tuning-Treffen am Schloss</title>');
    expect(landing.head).toContain(
      '<meta name="description" content="Schlosstreffen &lt;2027&gt;: das Tuning-Treffen',
    );
    expect(landing.head).not.toContain('rel="canonical"');
    expect(landing.html).not.toMatch(/<title|<meta|rel="canonical"/);

    const login = await renderPage('/login');
    expect(login.head).toContain('<title>Anmelden – Schlosstreffen</title>');
    expect(login.head).toContain('<link rel="canonical" href="https://schloss.example/login"');
    expect(login.html).toContain('Anmelden');
  });

  it('hands the query cache to the browser in scripts that carry the nonce', async () => {
    const { html } = await renderPage('/register');
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map(([tag]) => tag);
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain('nonce="bm9uY2U="');
    // The current user's query (null here) is among the dehydrated queries.
    expect(html).toMatch(/"auth",\s*"user"/);
  });

  it("renders the edition's public texts into the landing page, and the default texts without them", async () => {
    const standard = await renderPage('/');
    expect(standard.html).toContain('Welchen Status kann meine Bewerbung haben?');
    expect(standard.html).toContain(
      'Individuell getunte Fahrzeuge vor der Kulisse eines historischen Schlosses in Sachsen – ein Tag für Schrauber, Fans und alle, die besondere Autos lieben.',
    );

    // As the api hands them over: formatted by shared's renderPublicTexts.
    const texts = renderPublicTexts(
      {
        introduction: 'Das **Treffen** am Schloss.',
        eventDetails: 'Anfahrt:\n\n- über die A4\n- [Parken](/anfahrt)',
        faq: [
          { question: 'Gibt es einen Dresscode <heute>?', answer: 'Nein, **bequeme Schuhe** & gute Laune.' },
        ],
      },
      'März 2026',
    );
    const result = await render({
      url: '/',
      nonce: 'bm9uY2U=',
      siteConfig: { ...siteConfig, texts },
      user: null,
    });
    if (result.kind !== 'page') throw new Error(result.kind);
    const { html } = result;
    expect(html).toContain('Gibt es einen Dresscode &lt;heute&gt;?');
    expect(html).toContain('<p>Nein, <strong>bequeme Schuhe</strong> &amp; gute Laune.</p>');
    expect(html).not.toContain('Welchen Status kann meine Bewerbung haben?');
    expect(html).toContain('<p>Das <strong>Treffen</strong> am Schloss.</p>');
    expect(html).not.toContain('Individuell getunte Fahrzeuge');
    expect(html).toContain(
      '<p>Anfahrt:</p><ul><li>über die A4</li><li><a href="/anfahrt">Parken</a></li></ul>',
    );
  });

  it('renders the not-found page with status 404 for a path no route serves', async () => {
    for (const path of ['/', '/login', '/dashboard', '/edit/123', '/admin/dashboard', '/rueckblick/2026']) {
      expect(isPage(path), path).toBe(true);
    }
    for (const path of ['/gibt-es-nicht', '/faq', '/admin/gibt-es-nicht', '/edit']) {
      expect(isPage(path), path).toBe(false);
    }
    const missing = await renderPage('/gibt-es-nicht');
    expect(missing.status).toBe(404);
    expect(missing.html).toContain('404 Page Not Found');
    expect(missing.html).toContain('Zur Startseite');
    expect(missing.head).toContain('<title>404 Page Not Found – Schlosstreffen</title>');
    expect(missing.head).toContain('Diese Seite gibt es nicht.');
    expect((await renderPage('/login')).status).toBe(200);
  });

  it("renders the landing page's calls to action, countdown, figures and FAQ in the phase of the moment the server wrote it", async () => {
    const landingAt = async (now: string) => {
      const result = await render({
        url: '/',
        nonce: 'bm9uY2U=',
        siteConfig: { ...DEFAULT_SITE_CONFIG, now: new Date(now).toISOString() },
        user: null,
      });
      if (result.kind !== 'page') throw new Error(result.kind);
      return result.html;
    };
    const deadlineAnswer = /Bis wann kann ich mich bewerben\?.*?<\/h3>.*?>([^<]*Bewerb[^<]*)</s;

    const open = await landingAt('2026-03-02T12:00:00+01:00');
    expect(open).toMatch(/<a[^>]*href="\/apply"[^>]*>Jetzt Bewerben<\/a>/);
    expect(open).toContain('role="timer"');
    expect(open).toContain('data-now="2026-03-02T11:00:00.000Z"');
    expect(open).toContain('Erwartete Gäste');
    expect(open).toMatch(deadlineAnswer);
    expect(deadlineAnswer.exec(open)?.[1]).toContain('spätestens bis März 2026');

    const closed = await landingAt('2026-05-01T12:00:00+02:00');
    expect(closed).not.toContain('Jetzt Bewerben');
    expect(closed).toContain('Bewerbungsschluss war am 31. März 2026');
    expect(closed).toMatch(/<a[^>]*href="\/visitor-registration"[^>]*>Als Besucher vormerken<\/a>/);
    expect(deadlineAnswer.exec(closed)?.[1]).toContain(
      'Der Bewerbungsschluss für Schlosstreffen 2026 war am 31. März 2026',
    );

    const over = await landingAt('2026-11-27T12:00:00+01:00');
    expect(over).not.toContain('Jetzt Bewerben');
    expect(over).toMatch(/<a[^>]*href="\/rueckblick\/2026"[^>]*>Rückblick 2026<\/a>/);
    expect(over).not.toContain('role="timer"');
    expect(over).toContain('ist vorbei – danke an alle!');
    expect(over).toContain('aria-label="Zahlen zum Schlosstreffen 2026"');
    expect(over).not.toContain('Erwartete Gäste');
    expect(deadlineAnswer.exec(over)?.[1]).toContain('Das Schlosstreffen 2026 ist vorbei.');
  });

  it("answers the router's redirect of a signed-in visitor as a redirect", async () => {
    const user = { id: 'u1', email: 'a@b.de', role: 'user' } as never;
    const result = await render({ url: '/login', nonce: 'bm9uY2U=', siteConfig, user });
    expect(result).toMatchObject({ kind: 'redirect', location: '/dashboard' });
  });
});

describe("server rendering of the jury's results", () => {
  const results: JuryResults = {
    edition: {
      year: 2026,
      name: 'Schlosstreffen 2026',
      startsAt: '2026-06-20T08:00:00.000Z',
      endsAt: '2026-06-20T18:00:00.000Z',
      place: 'Schlosspark',
    },
    publishedAt: '2026-06-20T17:30:00.000Z',
    classes: [
      {
        id: 'c3000000-0000-4000-8000-000000000001',
        name: 'Bester Umbau',
        places: [
          {
            place: 1,
            startNumber: 7,
            name: 'Roter Blitz',
            imageUrl: '/objects/thumbs/m1/1280.webp',
            hasPage: true,
          },
          { place: 2, startNumber: 3, name: 'Blauer <Wal>', imageUrl: null, hasPage: false },
        ],
      },
    ],
    award: [{ rank: 1, startNumber: 3, name: 'Blauer <Wal>', votes: 40 }],
  };

  it('renders /ergebnisse/2026 with its places, head and Open Graph tags, and hands the results to the browser', async () => {
    expect(isPage('/ergebnisse/2026')).toBe(true);
    expect(readsNoQuery('/ergebnisse/2026')).toBe(true);
    const result = await render({
      url: '/ergebnisse/2026',
      nonce: 'bm9uY2U=',
      siteConfig,
      user: null,
      juryResults: results,
    });
    if (result.kind !== 'page') throw new Error(result.kind);
    expect(result.status).toBe(200);
    expect(result.head).toContain('<title>Ergebnisse 2026 – Schlosstreffen</title>');
    expect(result.head).toContain('<link rel="canonical" href="https://schloss.example/ergebnisse/2026"');
    expect(result.head).toContain('<meta property="og:title" content="Ergebnisse 2026 – Schlosstreffen"');
    expect(result.head).toContain(
      '<meta property="og:description" content="Die Jury-Ergebnisse vom Schlosstreffen 2026 – Bester Umbau: Roter Blitz"',
    );
    expect(result.head).toContain(
      '<meta property="og:url" content="https://schloss.example/ergebnisse/2026"',
    );
    expect(result.head).toContain(
      '<meta property="og:image" content="https://schloss.example/objects/thumbs/m1/1280.webp"',
    );
    expect(result.head).toContain('<meta name="twitter:card" content="summary_large_image"');
    expect(result.html).toMatch(/<h1[^>]*>Ergebnisse 2026<\/h1>/);
    expect(result.html).toMatch(/<a href="\/fahrzeuge\/2026\/7"[^>]*>Roter Blitz<\/a>/);
    expect(result.html).toContain('Blauer &lt;Wal&gt;');
    expect(result.html).toContain('Publikumsliebling 2026');
    // The results travel dehydrated: the browser does not ask for them again.
    expect(result.html).toMatch(/"jury-results",\s*2026/);
  });

  it('renders the not-found page with status 404 before the results are published', async () => {
    const result = await render({
      url: '/ergebnisse/2026',
      nonce: 'bm9uY2U=',
      siteConfig,
      user: null,
      juryResults: null,
    });
    if (result.kind !== 'page') throw new Error(result.kind);
    expect(result.status).toBe(404);
    expect(result.html).toContain('404 Page Not Found');
    expect((await renderPage('/ergebnisse/20x6')).status).toBe(404);
  });
});
