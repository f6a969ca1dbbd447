/**
 * R7: POST /api/auth/login under load (autocannon, one account per connection, rate limits raised), against what the
 * password hash allows: the argon2id verify time with the project's parameters, measured here on
 * the hash the api stored, and the machine's ceiling of cores × 1000 / verify-ms logins per second.
 */
import { verifyPassword } from '@schlosstreffen/api/core';
import { LOAD, load } from '../load.js';
import { withDatabase } from '../seed.js';
import { API_URL, CORES, LOGIN_USER, LOGIN_USERS, PUBLIC_URL, REFERENCE_SPEED } from '../settings.js';
import { mean, speedFactor, type Figure } from '../stats.js';

const VERIFY_RUNS = 20;

async function verifyMs(): Promise<{ ms: number; params: string }> {
  const hash = await withDatabase(async (db) => {
    const result = await db.query<{ hash: string }>(
      'select password_hash as hash from users where email = $1',
      [LOGIN_USER.email],
    );
    return result.rows[0]!.hash;
  });
  for (let run = 0; run < 2; run++) await verifyPassword(hash, LOGIN_USER.password);
  const samples: number[] = [];
  for (let run = 0; run < VERIFY_RUNS; run++) {
    const started = performance.now();
    if (!(await verifyPassword(hash, LOGIN_USER.password)))
      throw new Error('the stored hash does not verify');
    samples.push(performance.now() - started);
  }
  return { ms: mean(samples), params: /\$(m=[^$]+)\$/.exec(hash)?.[1] ?? '?' };
}

export async function login(): Promise<Figure[]> {
  const verify = await verifyMs();
  let next = 0;
  const result = await load({
    url: `${API_URL}/api/auth/login`,
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: PUBLIC_URL },
    // Each request signs in the next account in turn, so the connections' requests in flight are
    // of different accounts.
    requests: [
      {
        setupRequest: (request) => ({
          ...request,
          body: JSON.stringify({
            email: LOGIN_USERS[next++ % LOGIN_USERS.length]!.email,
            password: LOGIN_USER.password,
          }),
        }),
      },
    ],
  });
  const ceiling = (CORES * 1000) / verify.ms;
  // How many times slower this machine hashes than the reference machine (R7 has no budget to scale).
  const hashing = speedFactor({ value: 1 / verify.ms, reference: 1 / REFERENCE_SPEED.argon2VerifyMs });
  return [
    {
      name: 'r7.login.rps',
      value: result.rps,
      unit: 'req/s',
      reference: `ceiling ${ceiling.toFixed(1)}/s = ${CORES} cores × 1000 / ${verify.ms.toFixed(1)} ms verify (${(result.rps / ceiling).toFixed(2)} of it); ${LOAD.connections} conn, ${LOAD.durationS} s`,
    },
    { name: 'r7.login.p99', value: result.p99Ms, unit: 'ms', reference: `p50 ${result.p50Ms} ms` },
    {
      name: 'r7.login.verify',
      value: verify.ms,
      unit: 'ms',
      reference: `argon2id ${verify.params}, one verify at a time, mean of ${VERIFY_RUNS}; ×${hashing.toFixed(2)} of the reference machine's ${REFERENCE_SPEED.argon2VerifyMs} ms`,
    },
    { name: 'r7.login.ceiling', value: ceiling, unit: 'req/s' },
  ];
}
