/**
 * pg_dump and pg_restore of the server's major version. A pg_dump older than the server refuses to
 * dump it, a newer one writes dumps an older pg_restore cannot read: the tools must match the server.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { ClientBase } from 'pg';

const run = promisify(execFile);

export type PostgresTool = 'pg_dump' | 'pg_restore';

/** The server's major version (server_version_num 170002 → 17). */
export async function serverMajor(client: ClientBase): Promise<number> {
  const { rows } = await client.query<{ v: string }>(`select current_setting('server_version_num') as v`);
  return Math.floor(Number(rows[0]!.v) / 10_000);
}

/** The major version a tool reports (`pg_dump (PostgreSQL) 17.2 (Debian …)` → 17). */
export async function toolMajor(binary: string): Promise<number> {
  const { stdout } = await run(binary, ['--version']);
  const match = /\(PostgreSQL\)\s+(\d+)/.exec(stdout);
  if (!match) throw new Error(`${binary} --version printed no PostgreSQL version: ${stdout.trim()}`);
  return Number(match[1]);
}

/**
 * The tool for the server's major version: PG_DUMP / PG_RESTORE when set, else
 * /usr/lib/postgresql/<major>/bin (Debian's layout), else the one on PATH. Throws when its major
 * version differs from the server's, naming both and what to install.
 */
export async function findTool(
  tool: PostgresTool,
  major: number,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string> {
  const configured = tool === 'pg_dump' ? env.PG_DUMP : env.PG_RESTORE;
  const candidates = configured
    ? [configured]
    : [path.join('/usr/lib/postgresql', String(major), 'bin', tool), tool];
  const found: string[] = [];
  for (const candidate of candidates) {
    if (candidate.includes('/') && !existsSync(candidate)) continue;
    let version: number;
    try {
      version = await toolMajor(candidate);
    } catch {
      continue;
    }
    if (version === major) return candidate;
    found.push(`${candidate} is version ${version}`);
  }
  const installed = existsSync('/usr/lib/postgresql')
    ? readdirSync('/usr/lib/postgresql').join(', ') || 'none'
    : 'none';
  throw new Error(
    `The PostgreSQL server is version ${major}, but ${found.length ? found.join('; ') : `no ${tool} was found`} ` +
      `(clients under /usr/lib/postgresql: ${installed}). ${tool} must match the server's major version: ` +
      `install postgresql-client-${major} (the PGDG apt repository, apt.postgresql.org, has every version) ` +
      `or set ${tool === 'pg_dump' ? 'PG_DUMP' : 'PG_RESTORE'} to the ${tool} of version ${major}.`,
  );
}

/** Runs a tool to its end; rejects with its error output when it fails. */
export function runTool(binary: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { stdio: ['ignore', 'ignore', 'pipe'], env });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-4000);
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (code === 0) resolve();
      else
        reject(new Error(`${path.basename(binary)} failed (${signal ?? `exit ${code}`}): ${stderr.trim()}`));
    });
  });
}

/** The connection string without its password, which goes to the tools as PGPASSWORD instead. */
export function toolConnection(databaseUrl: string): { url: string; env: NodeJS.ProcessEnv } {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  return { url: url.toString(), env: password ? { ...process.env, PGPASSWORD: password } : process.env };
}
