/**
 * `npm run bench`: seeds its own database, starts the built api and worker with services of their
 * own, measures R1–R15 against their budgets and references (the absolute ones in reference-machine
 * units: scaled by this machine's speed, measured in the same run), prints one line per figure and
 * writes the same as JSON (test-results/bench/latest.json, not tracked), then `N passed, M failed`
 * over the budgets (a part that could not be measured counts as one failed). Exit code 1 when any
 * failed. `… run.ts r1 r5` measures only those (nothing is written).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as prettier from 'prettier';
import { adminLists } from './figures/admin-lists.js';
import { assets } from './figures/assets.js';
import { gateSpike } from './figures/gate-spike.js';
import { jurySpike } from './figures/jury-spike.js';
import { landing } from './figures/landing.js';
import { landingSpike } from './figures/landing-spike.js';
import { login } from './figures/login.js';
import { publicList } from './figures/public-list.js';
import { quartett } from './figures/quartett.js';
import { statementImport } from './figures/statement-import.js';
import { statusMail } from './figures/status-mail.js';
import { thumbnails } from './figures/thumbnails.js';
import { uploads } from './figures/uploads.js';
import { visitorTickets } from './figures/visitor-tickets.js';
import { votes } from './figures/votes.js';
import { Client } from './http.js';
import { makePhotos, migrate, seed, storeHeroRenditions, withDatabase } from './seed.js';
import { ADMIN, DATA, LOGIN_USERS, ROOT } from './settings.js';
import { s3Settings, startApi, startServices, startWorker, teardown } from './stack.js';
import { nodeHttpSpeed, untilQuiet } from './speed.js';
import {
  formatBudget,
  formatLines,
  formatValue,
  roundedValue,
  statusOf,
  type Figure,
  type Speed,
} from './stats.js';

const ALL = [
  'r1',
  'r2',
  'r3',
  'r4',
  'r5',
  'r6',
  'r7',
  'r8',
  'r9',
  'r10',
  'r11',
  'r12',
  'r13',
  'r14',
  'r15',
] as const;
type Part = (typeof ALL)[number];
const TITLES: Record<Part, string> = {
  r1: 'R1 public list',
  r2: 'R2 admin lists',
  r3: 'R3 thumbnails',
  r4: 'R4 quartett PDF',
  r5: 'R5 landing page',
  r6: 'R6 status to inbox',
  r7: 'R7 login',
  r8: 'R8 photo uploads',
  r9: 'R9 landing spike',
  r10: 'R10 assets',
  r11: 'R11 gate under the spike',
  r12: 'R12 votes',
  r13: 'R13 jury under the spike',
  r14: 'R14 bank statement import',
  r15: 'R15 visitor tickets',
};

const requested = process.argv.slice(2).map((arg) => arg.toLowerCase());
const unknown = requested.filter((arg) => !ALL.includes(arg as Part));
if (unknown.length) {
  console.error(`unknown parts: ${unknown.join(', ')} (choose from ${ALL.join(', ')})`);
  process.exit(2);
}
const parts = new Set<Part>(requested.length ? (requested as Part[]) : ALL);
/** Parts whose budgets scale by node:http's rate, measured once before them. */
const BY_NODE_HTTP: readonly Part[] = ['r2', 'r4', 'r6', 'r11', 'r13', 'r15'];
const complete = parts.size === ALL.length;

const startedAt = new Date();
const loadStart = os.loadavg();
const log = (message: string) =>
  console.error(`[bench ${((Date.now() - startedAt.getTime()) / 1000).toFixed(0).padStart(4)} s] ${message}`);

const figures = new Map<Part, Figure[]>();
/** This machine's speeds, printed first. */
const speeds: Figure[] = [];
const failures: string[] = [];

async function measure(part: Part, run: () => Promise<Figure[]>): Promise<void> {
  if (!parts.has(part)) return;
  log(`${TITLES[part]} …`);
  try {
    figures.set(part, await run());
  } catch (error) {
    failures.push(
      `${TITLES[part]}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    log(`${TITLES[part]} failed`);
  }
}

try {
  log('services, database, seed');
  const services = await startServices();
  await migrate(services.env);
  const seeded = await seed();
  const photos = await makePhotos();
  const stored = await storeHeroRenditions(s3Settings(services.s3), photos, seeded.heroes);
  log(
    `seeded ${DATA.vehicles} vehicles, ${DATA.vehicles * DATA.mediaPerVehicle} media, ${stored} renditions stored`,
  );

  const api = await startApi(services);
  const worker = await startWorker(services);
  const admin = await new Client().register(ADMIN);
  await withDatabase((db) => db.query(`update users set role = 'admin' where id = $1`, [admin.id]));
  for (const user of LOGIN_USERS) await new Client().register(user);
  // Signing in is measured for accounts whose address is confirmed, as most are.
  await withDatabase((db) =>
    db.query(`update users set email_verified = true where email = any($1)`, [
      LOGIN_USERS.map((u) => u.email),
    ]),
  );
  log('api and worker running');
  const quiet = await untilQuiet();
  log(`cores ${(quiet.share * 100).toFixed(0)} % busy after ${quiet.waitedS.toFixed(0)} s`);

  // First, once the machine is quiet: Lighthouse's simulated timings scale with the CPU time it
  // observes, so load left over from the other parts would count against the page.
  await measure('r5', landing);
  let nodeHttp: Speed | undefined;
  if (BY_NODE_HTTP.some((part) => parts.has(part))) {
    log('speed of node:http …');
    const measured = await nodeHttpSpeed();
    nodeHttp = measured.speed;
    speeds.push(measured.figure);
  }
  const scaledBy = () => {
    if (!nodeHttp) throw new Error("node:http's speed was not measured");
    return nodeHttp;
  };
  await measure('r1', publicList);
  await measure('r9', landingSpike);
  await measure('r10', assets);
  await measure('r11', () => gateSpike(scaledBy()));
  await measure('r13', () => jurySpike(scaledBy()));
  await measure('r12', () => votes(services.env));
  await measure('r2', () => adminLists(services.env, scaledBy()));
  await measure('r7', login);
  await measure('r6', () => statusMail(services.mailWebUrl, seeded.submitted, scaledBy()));
  await measure('r3', () =>
    thumbnails(services.s3, photos, seeded.drafts, Number(services.env.WORKER_CONCURRENCY)),
  );
  await measure('r8', () => uploads(services.s3, Number(services.env.WORKER_CONCURRENCY)));
  await measure('r14', async () => statementImport(await new Client().login(ADMIN.email, ADMIN.password)));
  await measure('r15', () => visitorTickets(services.env, scaledBy()));
  await worker.stop();
  await api.stop();
  // Last: it makes every vehicle confirmed.
  await measure('r4', () => quartett(services.s3, scaledBy()));
} catch (error) {
  failures.push(error instanceof Error ? (error.stack ?? error.message) : String(error));
} finally {
  log('cleaning up');
  await teardown();
}

const finishedAt = new Date();
const durationS = (finishedAt.getTime() - startedAt.getTime()) / 1000;
const ordered = [...speeds, ...ALL.flatMap((part) => figures.get(part) ?? [])];
const passed = ordered.filter((f) => statusOf(f) === 'pass').length;
const missed = ordered.filter((f) => statusOf(f) === 'miss').length;
console.log(formatLines(ordered).join('\n'));
console.log(
  `\n${durationS.toFixed(0)} s on ${os.availableParallelism()} cores; load average ${loadStart.map((n) => n.toFixed(2)).join(' ')} at start, ` +
    `${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')} at end${failures.length ? `; ${failures.length} not measured (below)` : ''}`,
);
console.log('what each figure measures, its budget and a reference run: docs/development.md#performance');

if (complete && failures.length === 0) {
  // A run's figures stay out of the tracked tree; docs/development.md#performance keeps the reference
  // figures.
  const file = path.join(ROOT, 'test-results', 'bench', 'latest.json');
  await mkdir(path.dirname(file), { recursive: true });
  const result = {
    generatedAt: finishedAt.toISOString(),
    durationS: Math.round(durationS),
    machine: {
      cores: os.availableParallelism(),
      cpu: os.cpus()[0]?.model ?? 'unknown',
      memoryGb: Math.round(os.totalmem() / 1024 ** 3),
      node: process.version,
      loadAverageStart: loadStart.map((n) => Number(n.toFixed(2))),
      loadAverageEnd: os.loadavg().map((n) => Number(n.toFixed(2))),
    },
    data: { vehicles: DATA.vehicles, media: DATA.vehicles * DATA.mediaPerVehicle, confirmed: DATA.confirmed },
    figures: ordered.map((figure) => ({
      name: figure.name,
      value: roundedValue(figure),
      unit: figure.unit,
      budget: figure.budget ? formatBudget(figure.budget) : null,
      status: statusOf(figure),
      reference: figure.reference ?? null,
      // A budget in reference-machine units: the reference machine's, the factor and the speed
      // measured here that gave it.
      scale: figure.scale
        ? {
            budget: formatBudget(figure.scale.budget),
            factor: figure.scale.factor,
            speed: { ...figure.scale.speed, value: Number(formatValue(figure.scale.speed.value)) },
          }
        : null,
    })),
  };
  // Formatted as `npm run lint` expects the committed file.
  const text = await prettier.format(JSON.stringify(result), {
    ...(await prettier.resolveConfig(file)),
    filepath: file,
  });
  await writeFile(file, text);
  console.log(`written ${path.relative(process.cwd(), file)}`);
}
if (failures.length) console.error(`\n${failures.length} not measured:\n${failures.join('\n\n')}`);
// Last, alone on its line: the budgets that held and those that did not (or could not be measured).
console.log(`${passed} passed, ${missed + failures.length} failed`);
process.exit(missed + failures.length ? 1 : 0);
