import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../testing/index.js';
import { juryResultsOf } from '../core/jury/jury-results.js';
import { Jury, JuryClass, JuryJudge } from '../core/model/jury.entity.js';

const run = promisify(execFile);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({ relay: false });
});
afterAll(() => t?.close());

/** `npm run seed` on the test's database and bucket with the app's clock at `clock`; what it printed. */
async function seed(clock: string): Promise<string> {
  const tsx = path.join(root, 'node_modules/.bin/tsx');
  const { stdout } = await run(tsx, ['--conditions=source', 'api/src/cli/cli.ts', 'seed'], {
    cwd: root,
    timeout: 180_000,
    maxBuffer: 16 * 1024 * 1024,
    env: { ...process.env, ...t.env, APP_CLOCK: clock },
  });
  return stdout;
}

const classes = () =>
  t.orm.em.fork().find(JuryClass, { edition: t.event.edition.id }, { orderBy: { position: 'asc' } });

describe('the demo jury of npm run seed', () => {
  it('on the meeting day: classes and judges, nothing scored or closed', { timeout: 240_000 }, async () => {
    const out = await seed('2026-06-20T12:00:00+02:00');
    expect(out).toContain(
      'Jury 2026: Best of Show, Bester Umbau, Bester Klassiker; Jurymitglieder jury1@schlosstreffen.de',
    );
    expect(out).toMatch(/jury2@schlosstreffen\.de +schlosstreffen +user \(Jury\) +Stefan Wolf/);
    expect((await classes()).map((c) => [c.name, c.closedAt])).toEqual([
      ['Best of Show', null],
      ['Bester Umbau', null],
      ['Bester Klassiker', null],
    ]);
    expect(await t.orm.em.fork().count(JuryJudge, { edition: t.event.edition.id })).toBe(3);
    expect(await juryResultsOf(t.orm.em.fork(), 2026)).toBeNull();
  });

  it(
    'after the meeting: every class closed and the results published, again and again',
    { timeout: 360_000 },
    async () => {
      for (const round of [1, 2]) {
        const out = await seed('2026-11-27T12:00:00+01:00');
        expect(out).toContain('/ergebnisse/2026');
        expect(out).toContain('jury1@schlosstreffen.de');
        const results = await juryResultsOf(t.orm.em.fork(), 2026);
        expect(results?.classes.map((c) => [c.name, c.places.map((p) => [p.place, p.name])])).toEqual([
          [
            'Best of Show',
            [
              [1, 'Rote Zora'],
              [2, 'Henna'],
            ],
          ],
          [
            'Bester Umbau',
            [
              [1, 'Henna'],
              [2, 'Rote Zora'],
            ],
          ],
          ['Bester Klassiker', [[1, 'Henna']]],
        ]);
        // The Porsche did not come: an admin closed its classes with that reason.
        expect((await classes()).map((c) => Boolean(c.forceReason))).toEqual([true, true, false]);
        const jury = await t.orm.em.fork().findOneOrFail(Jury, { edition: t.event.edition.id });
        expect(jury.version).toBe(round);
        expect(jury.publishedAt!.getTime()).toBeLessThan(t.event.end.getTime());
      }
      expect(await t.orm.em.fork().count(JuryJudge, { edition: t.event.edition.id })).toBe(3);
    },
  );
});
