import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renditionKey, objectPathOf, parseKey } from '../../core/storage/objects.js';
import {
  createTestContext,
  createWorld,
  putObject,
  type TestContext,
  type World,
} from '../../testing/index.js';

let t: TestContext;
let world: World;

beforeAll(async () => {
  t = await createTestContext({ relay: false });
  world = await createWorld(t);
});
afterAll(() => t?.close());

/** The max-age of a Cache-Control value, or undefined. */
const maxAge = (value: string | null) => {
  const match = /max-age=(\d+)/.exec(value ?? '');
  return match ? Number(match[1]) : undefined;
};

describe('GET /objects/{key}: caching', () => {
  it('lets caches keep public images and renditions minutes, not a year, and revalidates them cheaply', async () => {
    const object = parseKey(world.confirmedImage.slice('/objects/'.length));
    if (object?.kind !== 'full') throw new Error('not an image');
    const rendition = objectPathOf(renditionKey(object.mediaId, 480));
    await putObject(t, renditionKey(object.mediaId, 480), 'image/webp');

    for (const path of [world.confirmedImage, rendition]) {
      const res = await t.client().get(path);
      expect(res.status, path).toBe(200);
      const cacheControl = res.headers.get('cache-control');
      expect(cacheControl, path).toMatch(/^public, /);
      // A withdrawn consent or a status change hides the image: caches let it go within minutes.
      expect(maxAge(cacheControl), path).toBeLessThanOrEqual(300);
      expect(cacheControl, path).not.toContain('immutable');
      const etag = res.headers.get('etag');
      const lastModified = res.headers.get('last-modified');
      expect(etag, path).toBeTruthy();
      expect(lastModified, path).toBeTruthy();

      // Asking again costs a 304 that renews the same rules.
      const again = await t.client().request('GET', path, { headers: { 'if-none-match': etag! } });
      expect(again.status, path).toBe(304);
      expect(again.headers.get('cache-control'), path).toBe(cacheControl);
      expect(again.headers.get('etag'), path).toBe(etag);
      const since = await t
        .client()
        .request('GET', path, { headers: { 'if-modified-since': lastModified! } });
      expect(since.status, path).toBe(304);
    }
  });

  it('marks what only some may see private, and lets no cache serve it without asking', async () => {
    for (const path of [world.submittedImage, world.accountExport]) {
      const res = await world.owner.client.get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('cache-control'), path).toBe('private, no-cache');
    }
  });
});
