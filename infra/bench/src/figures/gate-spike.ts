/**
 * R11: the gate under the landing spike. Four gate devices, each with its own staff session and
 * device id, send their queued scans (POST /api/admin/check-in/sync, 10 scans of confirmed cars per
 * request, with the cursor of their last answer, as the check-in screen does) on a steady schedule:
 * first on a quiet api, then while R9's spike (50 connections of anonymous GET /, from a process of
 * its own) runs. p99 under the spike at most 200 ms and at most 3 × the quiet p99.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { GateEntryData, GateList, GateSyncResult } from '@schlosstreffen/shared/api';
import { BROWSER_HEADERS } from '../browser.js';
import type { SpikeResult } from '../children/spike.js';
import { Client } from '../http.js';
import { withDatabase } from '../seed.js';
import { API_URL, DATA } from '../settings.js';
import { firstMessage, spawnScript, type NodeChild } from '../stack.js';
import { inReferenceUnits, percentile, type Figure, type Speed } from '../stats.js';
import { SPIKE } from './landing-spike.js';

const DEVICES = 4;
const SCANS_PER_SYNC = 10;
/** Each device sends one sync this often (a late answer moves its next one back, never closer). */
const INTERVAL_MS = 250;
const WARMUP_MS = 2_000;
/** Each measured phase: quiet, then under the spike. */
const PHASE_MS = 12_000;
/** The spike runs until the gates' phase is over (its last answers in), at most this long. */
const SPIKE_MAX_S = 120;

interface Device {
  client: Client;
  deviceId: string;
  gate: string;
  cursor?: string;
}

interface Phase {
  latencies: number[];
  admitted: number;
  duplicates: number;
  /** From the first request to the last answer. */
  seconds: number;
}

/** A reviewer at gate n, signed in with a session of their own. */
async function gateStaff(index: number): Promise<Client> {
  const user = {
    email: `gate-${index}@bench.test`,
    password: 'bench-gate-password',
    firstName: 'Tor',
    lastName: String(index),
  };
  await new Client().register(user);
  await withDatabase((db) => db.query(`update users set role = 'reviewer' where email = $1`, [user.email]));
  const client = new Client();
  const answer = await client.json<{ secondFactor?: string }>('POST', '/api/auth/login', {
    email: user.email,
    password: user.password,
  });
  if (answer.secondFactor) {
    throw new Error(
      'staff sign-in asks for a second factor: the bench runs the api with STAFF_SECOND_FACTOR off',
    );
  }
  return client;
}

/** One sync of 10 new scans (random confirmed cars, so many are repeats); its time in ms. */
async function sync(device: Device, invitations: readonly string[], phase: Phase): Promise<void> {
  const scans = Array.from({ length: SCANS_PER_SYNC }, () => ({
    id: randomUUID(),
    invitationId: invitations[Math.floor(Math.random() * invitations.length)]!,
    scannedAt: new Date().toISOString(),
  }));
  const started = performance.now();
  const response = await device.client.request('POST', '/api/admin/check-in/sync', {
    deviceId: device.deviceId,
    gate: device.gate,
    since: device.cursor,
    scans,
  });
  const text = await response.text();
  phase.latencies.push(performance.now() - started);
  if (response.status !== 200) throw new Error(`sync answered ${response.status}: ${text.slice(0, 300)}`);
  const answer = JSON.parse(text) as GateSyncResult;
  const states = new Map(answer.scans.map((state) => [state.id, state]));
  for (const scan of scans) {
    const state = states.get(scan.id);
    if (!state || state.result === 'refused') {
      throw new Error(
        `scan of ${scan.invitationId} ${state ? `refused: ${state.message}` : 'missing in the answer'}`,
      );
    }
    if (state.result === 'admitted') phase.admitted += 1;
    else phase.duplicates += 1;
  }
  device.cursor = answer.cursor;
}

/** Every device on its schedule (staggered) for `ms`; each request started in time is counted. */
async function run(devices: Device[], invitations: readonly string[], ms: number): Promise<Phase> {
  const phase: Phase = { latencies: [], admitted: 0, duplicates: 0, seconds: 0 };
  const start = performance.now();
  const end = start + ms;
  await Promise.all(
    devices.map(async (device, index) => {
      let next = performance.now() + (index * INTERVAL_MS) / devices.length;
      while (next < end) {
        await sleep(Math.max(0, next - performance.now()));
        await sync(device, invitations, phase);
        next = Math.max(next + INTERVAL_MS, performance.now());
      }
    }),
  );
  phase.seconds = (performance.now() - start) / 1000;
  return phase;
}

/** The next IPC message of a child; a rejection nobody awaited yet is kept from ending the bench. */
function nextMessage<T>(child: NodeChild): Promise<T> {
  const message = firstMessage<T>(child);
  message.catch(() => undefined);
  return message;
}

/** The p99 budget is the reference machine's, scaled by `speed` (node:http's rate); the ratio is not. */
export async function gateSpike(speed: Speed): Promise<Figure[]> {
  const devices: Device[] = [];
  for (let index = 1; index <= DEVICES; index++) {
    devices.push({ client: await gateStaff(index), deviceId: randomUUID(), gate: `Tor ${index}` });
  }
  // The cars as a gate knows them: its signed list.
  const list = await devices[0]!.client.json<GateList>('GET', '/api/admin/check-in/list');
  const invitations = list.entries
    .map((entry) => JSON.parse(entry.data) as GateEntryData)
    .filter((entry) => entry.confirmed)
    .map((entry) => entry.id);
  if (invitations.length !== DATA.confirmed) {
    throw new Error(`the gate list holds ${invitations.length} confirmed cars, expected ${DATA.confirmed}`);
  }

  await run(devices, invitations, WARMUP_MS);
  const quiet = await run(devices, invitations, PHASE_MS);

  const spike = spawnScript('spike', 'children/spike.js');
  let loaded: Phase;
  let landing: SpikeResult;
  try {
    const started = nextMessage(spike);
    spike.child.send({
      url: `${API_URL}/`,
      connections: SPIKE.connections,
      maxDurationS: SPIKE_MAX_S,
      headers: BROWSER_HEADERS,
    });
    await started;
    const done = nextMessage<SpikeResult>(spike);
    await sleep(SPIKE.warmupS * 1000);
    loaded = await run(devices, invitations, PHASE_MS);
    spike.child.send('stop');
    landing = await done;
    if (landing.ranOut) throw new Error(`the spike ran out (${SPIKE_MAX_S} s) before the gates' phase ended`);
  } finally {
    await spike.stop();
  }
  if (landing.errors || landing.timeouts || landing.non2xx) {
    throw new Error(
      `GET / during the spike: ${landing.errors} errors, ${landing.timeouts} timeouts, ${landing.non2xx} non-2xx answers`,
    );
  }

  const p99 = percentile(loaded.latencies, 99);
  const quietP99 = percentile(quiet.latencies, 99);
  const p50 = (phase: Phase) => percentile(phase.latencies, 50).toFixed(1);
  const schedule = `${DEVICES} devices, each a sync of ${SCANS_PER_SYNC} scans every ${INTERVAL_MS} ms, sent for ${PHASE_MS / 1000} s, answered within ${loaded.seconds.toFixed(1)} s`;
  const scans = (phase: Phase) => `${phase.admitted} admitted, ${phase.duplicates} duplicates`;
  return [
    inReferenceUnits(
      {
        name: 'r11.gate_spike.p99',
        value: p99,
        unit: 'ms',
        budget: { op: '<=', limit: 200 },
        reference: `p50 ${p50(loaded)} ms, max ${Math.max(...loaded.latencies).toFixed(0)} ms; ${loaded.latencies.length} syncs (${schedule}) beside ${SPIKE.connections} conn of anonymous GET / at ${landing.rps.toFixed(0)} req/s`,
      },
      speed,
    ),
    {
      name: 'r11.gate_spike.p99_ratio',
      value: p99 / quietP99,
      unit: 'x',
      budget: { op: '<=', limit: 3 },
      reference: `p99 ${p99.toFixed(1)} ms under the spike ÷ ${quietP99.toFixed(1)} ms quiet (quiet p50 ${p50(quiet)} ms)`,
    },
    { name: 'r11.gate_spike.quiet_p99', value: quietP99, unit: 'ms' },
    {
      name: 'r11.gate_spike.requests',
      value: quiet.latencies.length + loaded.latencies.length,
      unit: 'req',
      digits: 0,
      reference: `${quiet.latencies.length} quiet, ${loaded.latencies.length} under the spike, each answered 200; scans: quiet ${scans(quiet)}, under the spike ${scans(loaded)}`,
    },
    {
      name: 'r11.gate_spike.landing_rps',
      value: landing.rps,
      unit: 'req/s',
      reference: `GET / from ${SPIKE.warmupS} s before the gates' phase to its end: p99 ${landing.p99Ms} ms, p50 ${landing.p50Ms} ms, ${landing.requests} requests`,
    },
  ];
}
