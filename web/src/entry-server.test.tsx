// @vitest-environment node
import { DEFAULT_SITE_CONFIG, type RenderResult } from '@schlosstreffen/shared';
import { describe, expect, it } from 'vitest';
import { render } from './entry-server';

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

  it("answers the router's redirect of a signed-in visitor as a redirect", async () => {
    const user = { id: 'u1', email: 'a@b.de', role: 'user' } as never;
    const result = await render({ url: '/login', nonce: 'bm9uY2U=', siteConfig, user });
    expect(result).toMatchObject({ kind: 'redirect', location: '/dashboard' });
  });
});
