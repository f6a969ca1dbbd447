/**
 * `npm run faults`: the fault suite. Starts a deployment of two apis and two workers (and a second,
 * smaller one on the same Redis) from the build, on this machine's PostgreSQL and Redis, with an
 * embedded S3 and a mail catcher, and runs the scenarios one after the other. Each prints one line
 * with its figures and its checks; the last line says how many passed. PostgreSQL and Redis are
 * restarted by two scenarios (FAULTS_PG_RESTART overrides the command) and left running.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../settings.js';
import { teardown } from '../stack.js';
import { Tally } from './client.js';
import { Deployment } from './deployment.js';
import {
  apiKilledAfterCommit,
  deploymentsApart,
  exportKilled,
  PARKING_ZONES,
  postgresRestart,
  redisRestart,
  scaleAsOne,
  smtpAway,
  storageAway,
  workerKills,
  type ScenarioResult,
  type World,
} from './scenarios.js';
import { createAdmin } from './workload.js';

for (const built of ['api/dist/main.js', 'worker/dist/main.js', 'api/dist/cli/cli.js']) {
  if (!existsSync(path.join(ROOT, built))) {
    console.error(`${built} is missing: run \`npm run build\` first (npm run faults does).`);
    process.exit(1);
  }
}

const started = Date.now();
const env = { PARKING_ZONES };
const main = new Deployment({
  name: 'faults-a',
  database: 'schlosstreffen_faults_a',
  apis: 2,
  workers: 2,
  basePort: 3300,
  env,
});
const second = new Deployment({
  name: 'faults-b',
  database: 'schlosstreffen_faults_b',
  apis: 1,
  workers: 1,
  basePort: 3350,
  env,
});

let passed = 0;
let failed = 0;
function report(index: number, result: ScenarioResult): void {
  const ok = result.checks.every((check) => check.ok);
  if (ok) passed += 1;
  else failed += 1;
  console.log(`${ok ? '✓' : '✗'} ${index}. ${result.name}: ${result.figures}`);
  for (const check of result.checks)
    console.log(`    ${check.ok ? '✓' : '✗'} ${check.name}: ${check.detail}`);
}

async function runScenario(index: number, run: () => Promise<ScenarioResult>, name: string): Promise<void> {
  const at = Date.now();
  try {
    report(index, await run());
  } catch (error) {
    failed += 1;
    console.log(`✗ ${index}. ${name}: ${(error as Error).stack ?? error}`);
  }
  console.log(`    (${((Date.now() - at) / 1000).toFixed(0)} s)`);
}

try {
  console.log('fault suite: starting two deployments (2 apis + 2 workers, and 1 + 1) on one Redis …');
  console.log('  (the scenarios, their checks and a reference run: docs/development.md#fault-suite)');
  await main.start();
  await second.start();
  // FAULTS_ONLY=6,7 runs only those scenarios (the second deployment starts all the same).
  const only = process.env.FAULTS_ONLY?.split(',').map(Number);
  const scenario = (index: number, run: () => Promise<ScenarioResult>, name: string) =>
    only && !only.includes(index) ? Promise.resolve() : runScenario(index, run, name);
  await scenario(1, () => deploymentsApart(main, second), 'two deployments on one Redis');
  await Promise.all([...second.apis, ...second.workers].map((proc) => proc.kill('SIGTERM')));

  const tally = new Tally();
  const world: World = {
    admin: await createAdmin(main, tally),
    applicants: [],
    tally,
    kills: { total: 0, byJob: {} },
  };
  await scenario(2, () => scaleAsOne(main, world), 'two apis and two workers as one');
  await scenario(3, () => workerKills(main, world, 50), 'workers killed in the middle of jobs');
  await scenario(4, () => exportKilled(main, world, 2), 'quartett export with its worker killed');
  await scenario(5, () => apiKilledAfterCommit(main, world, 10), 'api killed right after a commit');
  await scenario(6, () => postgresRestart(main, world), 'PostgreSQL restarted during traffic');
  await scenario(7, () => redisRestart(main, world), 'Redis restarted during traffic');
  await scenario(8, () => storageAway(main, world), 'S3 away for 30 s');
  await scenario(9, () => smtpAway(main, world), 'mail server away for 30 s');
  console.log(
    `worker SIGKILLs in all: ${world.kills.total} (${Object.entries(world.kills.byJob)
      .map(([name, n]) => `${name} ${n}`)
      .join(', ')})`,
  );
} catch (error) {
  failed += 1;
  console.error('fault suite:', error);
} finally {
  await teardown();
}
console.log(`${passed} passed, ${failed} failed (${((Date.now() - started) / 60_000).toFixed(1)} min)`);
process.exit(failed ? 1 : 0);
