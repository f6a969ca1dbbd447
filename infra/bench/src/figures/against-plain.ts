/**
 * R9's and R10's comparison: one path of the api as built against plain node:http serving the bytes
 * and headers the api answered once (as R1 does for the public list), both loaded with autocannon
 * from this process with a browser's headers, in turns (api, node:http, node:http, api); node:http
 * alone gives this machine's speed at CPU-bound HTTP (speed.ts).
 */
import type { RawAnswer } from '../browser.js';
import { rawGet } from '../browser.js';
import { combine, load, type LoadResult, type LoadShape } from '../load.js';
import { API_URL, PORTS } from '../settings.js';
import { firstMessage, spawnScript } from '../stack.js';

export interface Comparison {
  /** The answer as fetched once and replayed by node:http. */
  answer: RawAnswer;
  api: LoadResult;
  plain: LoadResult;
}

export async function againstPlain(
  pathname: string,
  headers: Record<string, string>,
  shape: LoadShape,
): Promise<Comparison> {
  const url = `${API_URL}${pathname}`;
  const answer = await answered(url, headers);
  return withPlain(answer, async (plainUrl) => {
    const apiRuns = [await load({ url, headers }, shape)];
    const plainRuns = [
      await load({ url: `${plainUrl}${pathname}`, headers }, shape),
      await load({ url: `${plainUrl}${pathname}`, headers }, shape),
    ];
    apiRuns.push(await load({ url, headers }, shape));
    return { answer, api: combine(apiRuns), plain: combine(plainRuns) };
  });
}

/** node:http alone serving what the api answered to `pathname`, in one run. */
export async function plainOnly(
  pathname: string,
  headers: Record<string, string>,
  shape: LoadShape,
): Promise<{ answer: RawAnswer; plain: LoadResult }> {
  const answer = await answered(`${API_URL}${pathname}`, headers);
  const plain = await withPlain(answer, (plainUrl) =>
    load({ url: `${plainUrl}${pathname}`, headers }, shape),
  );
  return { answer, plain };
}

async function answered(url: string, headers: Record<string, string>): Promise<RawAnswer> {
  const answer = await rawGet(url, headers);
  if (answer.status !== 200) throw new Error(`GET ${url} answered ${answer.status}`);
  return answer;
}

/** node:http replaying `answer` in a process of its own while `run` loads it (given its base URL). */
async function withPlain<T>(answer: RawAnswer, run: (plainUrl: string) => Promise<T>): Promise<T> {
  const plain = spawnScript('plain', 'children/plain-server.js');
  const ready = firstMessage(plain);
  plain.child.send({ port: PORTS.plain, headers: answer.headers, body: answer.body.toString('base64') });
  await ready;
  try {
    return await run(`http://127.0.0.1:${PORTS.plain}`);
  } finally {
    await plain.stop();
  }
}

/** 'br, 93.9 KB' or 'identity, 12.0 KB': how the answer travelled. */
export function describeBody(answer: RawAnswer): string {
  const encoding = answer.headers['content-encoding'] ?? 'identity';
  return `${String(encoding)}, ${(answer.body.length / 1024).toFixed(1)} KB`;
}
