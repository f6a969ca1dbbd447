import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import pg from 'pg';
import { ConfigError, type CommonConfig } from '../config.js';
import { logger } from '../logger.js';

/**
 * What the public pages show, each with a version of its own: a statement that changes one takes
 * the next number of its sequence (`public_input_<name>`) and announces `name:number` on this
 * channel when its transaction commits (migration `public_inputs`). 'cars' is what the cars' pages
 * show beyond the public list: the confirmed cars' places and an unlisted car's brand and model
 * (migration `car_page_input`).
 */
export const PUBLIC_INPUT_CHANNEL = 'public_input';
export const PUBLIC_INPUTS = ['vehicles', 'texts', 'editions', 'arrivals', 'cars', 'jury'] as const;
export type PublicInput = (typeof PUBLIC_INPUTS)[number];

const RECONNECT_MS = 1000;

/**
 * The listening connection is asked every so often whether it still answers: a network cut that
 * neither end notices (no reset, only silence) would otherwise leave it listening to nothing, and
 * after the cut TCP's backoff would hold what it carries for a minute or more.
 */
export interface ListenerChecks {
  everyMs: number;
  timeoutMs: number;
}
const LISTENER_CHECKS: ListenerChecks = { everyMs: 5000, timeoutMs: 3000 };

/** What the public list reader needs to know: whether anything may have changed since `version`. */
export interface PublicListVersion {
  /** Changes whenever the read model may have changed. */
  readonly version: number;
  /** False while changes cannot be heard; the reader then checks the database on every request. */
  readonly listening: boolean;
}

/** Transactions that wrote the public list; their commit counts at once in this process. */
const listWriters = new WeakSet<object>();

/**
 * Marks the caller's transaction as one that changed the public list: when it commits, this
 * process's list counts as changed before the notification arrives.
 */
export function markPublicListChanged(em: EntityManager): void {
  const transaction = em.getTransactionContext<object>();
  if (transaction) listWriters.add(transaction);
}

const isInput = (name: string): name is PublicInput => (PUBLIC_INPUTS as readonly string[]).includes(name);

/**
 * Hears changes of the public inputs: PostgreSQL's notifications (LISTEN on a connection of its
 * own) for commits of any process, and this process's own commits that wrote the public list at
 * once. Subscribers learn which inputs changed; `version` is the public list's (PublicListVersion).
 * While the connection is down nothing counts as known; after a reconnect the inputs whose
 * sequence moved meanwhile count as changed (their notifications may have been missed).
 */
export class PublicInputs implements PublicListVersion {
  version = 0;
  listening = false;
  /** The newest number heard of each input. */
  readonly versions = new Map<PublicInput, number>();
  private readonly subscribers = new Set<(inputs: readonly PublicInput[]) => void>();
  private client: pg.Client | undefined;
  private retry: NodeJS.Timeout | undefined;
  private check: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly databaseUrl: string,
    private readonly log: (message: string, error?: unknown) => void = (message, error) =>
      logger.warn({ err: error }, message),
    private readonly checks: ListenerChecks = LISTENER_CHECKS,
  ) {}

  /** Starts listening (retrying in the background when the database does not answer). */
  async start(em?: EntityManager): Promise<void> {
    em?.getEventManager().registerSubscriber({
      afterTransactionCommit: ({ transaction }) => {
        if (transaction && listWriters.has(transaction)) this.changed(['vehicles']);
      },
    });
    await this.connect();
  }

  /** Calls `listener` with the inputs of every change heard; returns the unsubscribe. */
  subscribe(listener: (inputs: readonly PublicInput[]) => void): () => void {
    this.subscribers.add(listener);
    return () => this.subscribers.delete(listener);
  }

  /** The public list counts as changed (a reconnect, a commit of this process). */
  bump(): void {
    this.version += 1;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    clearInterval(this.check);
    this.listening = false;
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private changed(inputs: readonly PublicInput[]): void {
    if (inputs.includes('vehicles')) this.bump();
    for (const subscriber of this.subscribers) {
      try {
        subscriber(inputs);
      } catch (error) {
        this.log('public inputs: a subscriber failed', error);
      }
    }
  }

  private heard(payload: string | undefined): void {
    const [name, number] = (payload ?? '').split(':');
    if (!name || !isInput(name)) return;
    const version = Number(number);
    if (Number.isFinite(version) && version > (this.versions.get(name) ?? 0))
      this.versions.set(name, version);
    this.changed([name]);
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.databaseUrl });
    client.on('notification', (message) => this.heard(message.payload));
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client));
    this.client = client;
    let read: Map<PublicInput, number>;
    try {
      await client.connect();
      await client.query(`listen ${PUBLIC_INPUT_CHANNEL}`);
      // After LISTEN: a change from here on is heard, an earlier one shows in its sequence.
      const { rows } = await client.query<{ name: PublicInput; version: string }>(
        PUBLIC_INPUTS.map(
          (name) => `select '${name}' as name, last_value as version from "public_input_${name}"`,
        ).join(' union all '),
      );
      read = new Map(rows.map((row) => [row.name, Number(row.version)]));
    } catch (error) {
      this.lost(client, error);
      return;
    }
    if (this.client !== client) return;
    const first = this.versions.size === 0;
    const moved = PUBLIC_INPUTS.filter((name) => (read.get(name) ?? 0) !== (this.versions.get(name) ?? 0));
    for (const [name, version] of read) {
      if (version > (this.versions.get(name) ?? 0)) this.versions.set(name, version);
    }
    this.listening = true;
    this.watch(client);
    // The list is read again after every (re)connect; other inputs only where their sequence moved.
    this.changed(first ? PUBLIC_INPUTS : [...new Set<PublicInput>(['vehicles', ...moved])]);
  }

  /** Asks the listening connection to answer, now and then; silence counts as a lost connection. */
  private watch(client: pg.Client): void {
    clearInterval(this.check);
    let asking = false;
    this.check = setInterval(() => {
      if (asking || this.client !== client) return;
      asking = true;
      let timer: NodeJS.Timeout | undefined;
      const silence = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`no answer within ${this.checks.timeoutMs} ms`)),
          this.checks.timeoutMs,
        );
      });
      Promise.race([client.query('select 1'), silence])
        .catch((error: unknown) => this.lost(client, error))
        .finally(() => {
          clearTimeout(timer);
          asking = false;
        });
    }, this.checks.everyMs);
    this.check.unref();
  }

  private lost(client: pg.Client, error?: unknown): void {
    if (this.client !== client) return;
    this.client = undefined;
    this.listening = false;
    clearInterval(this.check);
    this.bump();
    // A silent connection would not end by itself: its socket goes at once.
    (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
    void client.end().catch(() => undefined);
    if (this.closed) return;
    this.log('public inputs: change notifications lost, reconnecting', error);
    this.retry = setTimeout(() => void this.connect(), RECONNECT_MS);
  }
}

/** How long a notification may take at start to arrive through DATABASE_URL. */
const NOTIFICATION_CHECK_MS = 2000;

/**
 * Whether a notification sent on one connection reaches a listener on another, both through
 * `databaseUrl`. Behind a pooler in transaction mode none arrives: the listening session serves
 * other clients between statements.
 */
async function notificationsArrive(databaseUrl: string): Promise<boolean> {
  const channel = `start_check_${randomBytes(6).toString('hex')}`;
  const listener = new pg.Client({ connectionString: databaseUrl });
  const sender = new pg.Client({ connectionString: databaseUrl });
  let heard = false;
  let wake: () => void = () => undefined;
  listener.on('notification', (message) => {
    if (message.channel !== channel) return;
    heard = true;
    wake();
  });
  try {
    await Promise.all([listener.connect(), sender.connect()]);
    await listener.query(`listen ${channel}`);
    await sender.query(`notify ${channel}`);
    if (!heard) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, NOTIFICATION_CHECK_MS);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    return heard;
  } finally {
    await Promise.all([listener.end().catch(() => undefined), sender.end().catch(() => undefined)]);
  }
}

/**
 * Starts hearing the public inputs on DATABASE_DIRECT_URL, or on DATABASE_URL once a notification
 * has been seen to arrive through it: behind a pooler that swallows them the public pages would go
 * stale unnoticed, so the start is refused instead.
 */
export async function listenForPublicInputs(
  config: Pick<CommonConfig, 'databaseUrl' | 'databaseDirectUrl'>,
  em: EntityManager,
): Promise<PublicInputs> {
  if (!config.databaseDirectUrl && !(await notificationsArrive(config.databaseUrl))) {
    throw new ConfigError(
      'Invalid configuration:\n  DATABASE_URL: notifications (LISTEN/NOTIFY) do not arrive through it, as ' +
        'behind a pooler in transaction mode; set DATABASE_DIRECT_URL to a connection straight to ' +
        'PostgreSQL (listening, migrations and backups use it)',
    );
  }
  const inputs = new PublicInputs(config.databaseDirectUrl ?? config.databaseUrl);
  await inputs.start(em);
  return inputs;
}
