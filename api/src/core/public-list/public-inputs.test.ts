/**
 * The listener of the public inputs through a network cut that neither end notices (a chaos proxy
 * that keeps the connection open and carries nothing): the silence counts as a lost connection
 * within its check, the reader stops trusting what it holds, and once the network is back the
 * listener reconnects and hears what changed meanwhile.
 */
import { startChaosProxy, type ChaosProxy } from '@schlosstreffen/infra/chaos-proxy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../testing/index.js';
import { PublicInputs, type PublicInput } from './public-inputs.js';

let t: TestContext;
let proxy: ChaosProxy;
let inputs: PublicInputs;
const heard: PublicInput[][] = [];

beforeAll(async () => {
  t = await createTestContext({ relay: false });
  const url = new URL(t.config.databaseUrl);
  proxy = await startChaosProxy({ host: url.hostname, port: Number(url.port || 5432) });
  inputs = new PublicInputs(proxy.url(t.config.databaseUrl), () => undefined, {
    everyMs: 200,
    timeoutMs: 400,
  });
  inputs.subscribe((changed) => heard.push([...changed]));
  await inputs.start();
});
afterAll(async () => {
  await inputs?.close();
  await proxy?.close();
  await t?.close();
});

/** A change of the public texts, committed and announced as the migrations' triggers do. */
async function changeTexts(): Promise<number> {
  const [row] = await t.orm.em
    .getConnection()
    .execute<Array<{ n: string }>>(`select nextval('public_input_texts') as n`);
  await t.orm.em.getConnection().execute(`select pg_notify('public_input', 'texts:' || ?)`, [row!.n]);
  return Number(row!.n);
}

const poll = { timeout: 10_000, interval: 50 };

describe('the listener of the public inputs', () => {
  it('counts a silent connection as lost and hears, once back, what changed meanwhile', async () => {
    expect(inputs.listening).toBe(true);
    heard.length = 0;
    const before = await changeTexts();
    await expect.poll(() => inputs.versions.get('texts'), poll).toBe(before);

    await proxy.stall();
    const version = inputs.version;
    await expect.poll(() => inputs.listening, poll).toBe(false);
    // Lost: the public list no longer counts as known.
    expect(inputs.version).toBeGreaterThan(version);
    const missed = await changeTexts();

    heard.length = 0;
    await proxy.up();
    await expect.poll(() => inputs.listening, poll).toBe(true);
    expect(inputs.versions.get('texts')).toBe(missed);
    expect(heard.flat()).toContain('texts');

    const after = await changeTexts();
    await expect.poll(() => inputs.versions.get('texts'), poll).toBe(after);
  });
});
