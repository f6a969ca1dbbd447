import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { JURY_DEFAULT_CRITERIA, JURY_MESSAGES } from '@schlosstreffen/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, uniqueEmail, type TestContext } from '../testing/index.js';
import { createJuryClass } from '../core/jury/jury-admin.js';
import { JuryClassJudge, JuryJudge } from '../core/model/jury.entity.js';
import { User } from '../core/model/user.entity.js';

const run = promisify(execFile);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

let t: TestContext;
let year: number;
/** A moment before the meeting: the jury is open. */
let at: Date;
const classIds: string[] = [];

beforeAll(async () => {
  t = await createTestContext({ relay: false });
  year = t.event.edition.year;
  at = new Date(t.event.start.getTime() - 24 * 3600_000);
  for (const name of ['Best of Show', 'Bester Umbau'])
    classIds.push(
      await createJuryClass(
        t.orm.em,
        year,
        {
          name,
          scope: { zones: [], categories: [], yearFrom: null, yearTo: null },
          criteria: JURY_DEFAULT_CRITERIA.map((c) => ({ ...c })),
          places: 3,
          judgeIds: [],
          headJudgeId: null,
        },
        at,
      ),
    );
});
afterAll(() => t?.close());

/** The command line on the test's database; its exit code and what it wrote. */
async function cli(...args: string[]): Promise<{ code: number; out: string }> {
  const tsx = path.join(root, 'node_modules/.bin/tsx');
  try {
    const { stdout, stderr } = await run(tsx, ['--conditions=source', 'api/src/cli/cli.ts', ...args], {
      cwd: root,
      timeout: 60_000,
      env: { ...process.env, DATABASE_URL: t.config.databaseUrl, NODE_ENV: 'test' },
    });
    return { code: 0, out: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, out: failed.stdout + failed.stderr };
  }
}

describe('npm run cli -- jury:judge <year> <email>', () => {
  it('makes the account that confirmed the address a judge of every class, once however often it runs', async () => {
    const em = t.orm.em.fork();
    const email = uniqueEmail('jury-cli');
    const user = em.create(User, {
      email,
      passwordHash: 'x',
      firstName: 'Jana',
      lastName: 'Jury',
      emailVerified: false,
    });
    await em.flush();

    // Nobody is made a judge by an address they have not confirmed.
    expect(await cli('jury:judge', String(year), email, '--as-of', at.toISOString())).toEqual({
      code: 1,
      out: 'The account has not confirmed that address yet\n',
    });
    await t.orm.em.fork().nativeUpdate(User, { id: user.id }, { emailVerified: true });

    const first = await cli('jury:judge', String(year), email.toUpperCase(), '--as-of', at.toISOString());
    expect(first).toEqual({
      code: 0,
      out: `The account is a judge of ${t.event.edition.name} in 2 classes: Best of Show, Bester Umbau\n`,
    });
    expect((await cli('jury:judge', String(year), email, '--as-of', at.toISOString())).code).toBe(0);
    const fresh = t.orm.em.fork();
    expect(await fresh.count(JuryJudge, { edition: t.event.edition.id, user: user.id })).toBe(1);
    expect(
      (await fresh.find(JuryClassJudge, { user: user.id })).map((row) => row.juryClass.id).sort(),
    ).toEqual([...classIds].sort());

    // After the jury's deadline (a day after the meeting's end) the record stays as it is.
    const late = new Date(t.event.end.getTime() + 25 * 3600_000).toISOString();
    expect(await cli('jury:judge', String(year), email, '--as-of', late)).toEqual({
      code: 1,
      out: `${JURY_MESSAGES.frozen(t.event.edition.name)}\n`,
    });
  });

  it('refuses an unknown address with exit code 1 and the usage without both arguments', async () => {
    const unknown = uniqueEmail('niemand');
    expect(await cli('jury:judge', String(year), unknown, '--as-of', at.toISOString())).toEqual({
      code: 1,
      out: 'No account has that address\n',
    });
    expect(await t.orm.em.fork().count(JuryJudge, {})).toBe(1);
    const usage = await cli('jury:judge', String(year));
    expect(usage.code).toBe(2);
    expect(usage.out).toContain('jury:judge <year> <email>');
  });
});
