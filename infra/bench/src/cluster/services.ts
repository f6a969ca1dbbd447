/**
 * The drill's own services, from Debian's packages, each in a host of the drill and on temporary
 * directories, leaving the machine's PostgreSQL and Redis untouched: PostgreSQL (a new cluster,
 * initdb) behind PgBouncer in transaction mode, a Redis primary and replica watched by three
 * Sentinels, HAProxy in front of the apis (on the machine, with health checks and retries).
 */
import { chown, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync } from 'node:fs';
import { Redis } from 'ioredis';
import { SUBNET, type Host } from './net.js';
import { reachable, spawnIn, waitUntil, type Spawned } from './processes.js';

const run = promisify(execFile);

export const PG_PORT = 5432;
export const PGBOUNCER_PORT = 6432;
export const REDIS_PORT = 6379;
export const SENTINEL_PORT = 26379;
export const SENTINEL_NAME = 'schlosstreffen';

const PG_BIN = '/usr/lib/postgresql/15/bin';

/** The Debian packages the drill runs; the missing ones, by package. */
export function missingPackages(): string[] {
  const needed: Record<string, string> = {
    [`${PG_BIN}/postgres`]: 'postgresql-15',
    '/usr/sbin/pgbouncer': 'pgbouncer',
    '/usr/bin/redis-server': 'redis-server',
    '/usr/sbin/haproxy': 'haproxy',
  };
  return Object.entries(needed)
    .filter(([binary]) => !existsSync(binary))
    .map(([, pkg]) => pkg);
}

/** A directory the postgres user owns (PostgreSQL refuses to run as root). */
async function postgresDirectory(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const { stdout } = await run('id', ['-u', 'postgres']);
  const { stdout: gid } = await run('id', ['-g', 'postgres']);
  await chown(dir, Number(stdout), Number(gid));
}

/** A new PostgreSQL cluster in `dir`, listening on the host's address; trust for the drill's subnet. */
export async function startPostgres(host: Host, dir: string, logDir: string): Promise<Spawned> {
  await postgresDirectory(dir);
  const data = path.join(dir, 'data');
  await run('runuser', [
    '-u',
    'postgres',
    '--',
    `${PG_BIN}/initdb`,
    '-D',
    data,
    '-A',
    'trust',
    '-U',
    'postgres',
  ]);
  await writeFile(path.join(data, 'pg_hba.conf'), `local all all trust\nhost all all ${SUBNET}.0/24 trust\n`);
  const proc = spawnIn(
    host,
    'postgres',
    `${PG_BIN}/postgres`,
    [
      '-D',
      data,
      '-c',
      `listen_addresses=${host.ip}`,
      '-c',
      `port=${PG_PORT}`,
      '-c',
      `unix_socket_directories=${dir}`,
      '-c',
      'max_connections=300',
      // A drill, not a store: no waiting for the disk.
      '-c',
      'fsync=off',
      '-c',
      'synchronous_commit=off',
      '-c',
      'full_page_writes=off',
    ],
    { user: 'postgres', logDir },
  );
  await waitUntil('PostgreSQL', () => reachable(host.ip, PG_PORT), { proc });
  return proc;
}

/** PgBouncer in transaction mode in front of the PostgreSQL on the same host. */
export async function startPgBouncer(host: Host, dir: string, logDir: string): Promise<Spawned> {
  await postgresDirectory(dir);
  const ini = path.join(dir, 'pgbouncer.ini');
  const users = path.join(dir, 'users.txt');
  await writeFile(users, '"postgres" ""\n');
  await writeFile(
    ini,
    [
      '[databases]',
      `* = host=${host.ip} port=${PG_PORT}`,
      '[pgbouncer]',
      `listen_addr = ${host.ip}`,
      `listen_port = ${PGBOUNCER_PORT}`,
      'auth_type = trust',
      `auth_file = ${users}`,
      'pool_mode = transaction',
      'unix_socket_dir =',
      'max_client_conn = 1000',
      'default_pool_size = 40',
      'ignore_startup_parameters = extra_float_digits,options',
      '',
    ].join('\n'),
  );
  for (const file of [ini, users]) await run('chown', ['postgres:postgres', file]);
  const proc = spawnIn(host, 'pgbouncer', '/usr/sbin/pgbouncer', [ini], { user: 'postgres', logDir });
  await waitUntil('PgBouncer', () => reachable(host.ip, PGBOUNCER_PORT), { proc });
  return proc;
}

/** A Redis server on the host, the primary or (with `primary`) its replica; nothing kept on disk. */
export async function startRedis(host: Host, dir: string, logDir: string, primary?: Host): Promise<Spawned> {
  await mkdir(dir, { recursive: true });
  const proc = spawnIn(
    host,
    `redis-${host.name}`,
    '/usr/bin/redis-server',
    [
      '--bind',
      host.ip,
      '--port',
      String(REDIS_PORT),
      '--protected-mode',
      'no',
      '--save',
      '',
      '--appendonly',
      'no',
      '--dir',
      dir,
      ...(primary ? ['--replicaof', primary.ip, String(REDIS_PORT)] : []),
    ],
    { logDir },
  );
  await waitUntil(`Redis on ${host.name}`, () => reachable(host.ip, REDIS_PORT), { proc });
  return proc;
}

/** A Sentinel on the host watching the primary (quorum 2 of 3, a primary down after 1.5 s). */
export async function startSentinel(
  host: Host,
  dir: string,
  logDir: string,
  primary: Host,
): Promise<Spawned> {
  await mkdir(dir, { recursive: true });
  const conf = path.join(dir, 'sentinel.conf');
  await writeFile(
    conf,
    [
      `bind ${host.ip}`,
      `port ${SENTINEL_PORT}`,
      'protected-mode no',
      `dir ${dir}`,
      `sentinel announce-ip ${host.ip}`,
      `sentinel monitor ${SENTINEL_NAME} ${primary.ip} ${REDIS_PORT} 2`,
      `sentinel down-after-milliseconds ${SENTINEL_NAME} 1500`,
      `sentinel failover-timeout ${SENTINEL_NAME} 10000`,
      `sentinel parallel-syncs ${SENTINEL_NAME} 1`,
      '',
    ].join('\n'),
  );
  const proc = spawnIn(host, `sentinel-${host.name}`, '/usr/bin/redis-server', [conf, '--sentinel'], {
    logDir,
  });
  await waitUntil(`Sentinel on ${host.name}`, () => reachable(host.ip, SENTINEL_PORT), { proc });
  return proc;
}

/** The address the Sentinels name as the primary now. */
export async function currentPrimary(sentinel: Host): Promise<string | undefined> {
  const client = new Redis({
    host: sentinel.ip,
    port: SENTINEL_PORT,
    lazyConnect: true,
    maxRetriesPerRequest: 1,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    const answer = (await client.call('SENTINEL', 'get-master-addr-by-name', SENTINEL_NAME)) as
      string[] | null;
    return answer ? answer[0] : undefined;
  } catch {
    return undefined;
  } finally {
    client.disconnect();
  }
}

/** HAProxy on its host in front of the apis: health checks on `checkPath`, retries on another api. */
export async function startHaproxy(
  host: Host,
  dir: string,
  logDir: string,
  options: { port: number; apis: Host[]; apiPort: number; checkPath: string },
): Promise<Spawned> {
  await mkdir(dir, { recursive: true });
  const conf = path.join(dir, 'haproxy.cfg');
  await writeFile(
    conf,
    [
      'global',
      '  maxconn 4000',
      'defaults',
      '  mode http',
      '  timeout connect 1s',
      '  timeout client 30s',
      // An api cut off answers nothing: after 5 s the request goes to another.
      '  timeout server 5s',
      '  timeout queue 10s',
      // A request that found no api, an api gone or silent before answering, or one refusing with
      // 503 while it stops, is sent to another (every request the drill makes is safe to repeat:
      // scans and votes are idempotent, a status change names the status it expects).
      '  retries 3',
      '  option redispatch 1',
      '  retry-on conn-failure empty-response response-timeout 503',
      '  option forwardfor',
      'frontend web',
      `  bind ${host.ip}:${options.port}`,
      '  default_backend apis',
      'backend apis',
      '  balance roundrobin',
      `  option httpchk GET ${options.checkPath}`,
      '  http-check expect status 200',
      // A check answers within milliseconds when the api is well; a busy machine may take a second.
      '  timeout check 3s',
      '  default-server inter 1s fall 2 rise 2',
      ...options.apis.map((api) => `  server ${api.name} ${api.ip}:${options.apiPort} check`),
      '',
    ].join('\n'),
  );
  const proc = spawnIn(host, 'haproxy', '/usr/sbin/haproxy', ['-db', '-f', conf], { logDir });
  await waitUntil('HAProxy', () => reachable(host.ip, options.port), { proc });
  return proc;
}
