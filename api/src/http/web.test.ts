import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseSiteConfig, SITE_CONFIG_ELEMENT_ID } from '@schlosstreffen/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../testing/index.js';

let t: TestContext;
let webDist: string;

beforeAll(async () => {
  webDist = await mkdtemp(path.join(tmpdir(), 'web-dist-'));
  await writeFile(
    path.join(webDist, 'index.html'),
    '<!doctype html><html><head><title>x</title></head><body><div id="root"></div></body></html>',
  );
  await writeFile(path.join(webDist, 'robots.txt'), 'User-agent: *\n');
  t = await createTestContext({
    relay: false,
    env: {
      WEB_DIST: webDist,
      EVENT_NAME: 'Schlosstreffen 2027',
      EVENT_START: '2027-06-19T10:00:00+02:00',
      EVENT_END: '2027-06-19T19:00:00+02:00',
    },
  });
});
afterAll(async () => {
  await t?.close();
  await rm(webDist, { recursive: true, force: true });
});

function siteConfigOf(html: string) {
  const match = new RegExp(
    `<script type="application/json" id="${SITE_CONFIG_ELEMENT_ID}">(.*?)</script>`,
  ).exec(html);
  return match ? parseSiteConfig(match[1]) : null;
}

describe('web client', () => {
  it('serves index.html for client routes with the configured event facts', async () => {
    for (const route of ['/', '/dashboard', '/edit/123']) {
      const res = await fetch(`${t.baseUrl}${route}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/html');
      const config = siteConfigOf(await res.text());
      expect(config).toMatchObject({
        eventName: 'Schlosstreffen 2027',
        eventStart: '2027-06-19T08:00:00.000Z',
        eventEnd: '2027-06-19T17:00:00.000Z',
      });
    }
  });

  it('serves files as they are and leaves /api to the API', async () => {
    expect(await (await fetch(`${t.baseUrl}/robots.txt`)).text()).toBe('User-agent: *\n');
    expect((await fetch(`${t.baseUrl}/api/nothing-here`)).status).toBe(404);
  });
});
