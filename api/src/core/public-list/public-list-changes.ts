import type { EntityManager } from '@mikro-orm/postgresql';
import pg from 'pg';
import { logger } from '../logger.js';

/** The channel a trigger on `public_vehicle` notifies when a transaction that changed it commits. */
export const PUBLIC_LIST_CHANNEL = 'public_vehicle';

const RECONNECT_MS = 1000;

/** What the public list reader needs to know: whether anything may have changed since `version`. */
export interface PublicListVersion {
  /** Changes whenever the read model may have changed. */
  readonly version: number;
  /** False while changes cannot be heard; the reader then checks the database on every request. */
  readonly listening: boolean;
}

/**
 * Hears changes of the public list read model: PostgreSQL's notifications (LISTEN on a connection
 * of its own) for commits of any process, and this process's own commits at once. While the
 * connection is down nothing counts as known, and a reconnect counts as a change (notifications
 * may have been missed).
 */
export class PublicListChanges implements PublicListVersion {
  version = 0;
  listening = false;
  private client: pg.Client | undefined;
  private retry: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly databaseUrl: string,
    private readonly log: (message: string, error?: unknown) => void = (message, error) =>
      logger.warn({ err: error }, message),
  ) {}

  /** Starts listening (retrying in the background when the database does not answer). */
  async start(em?: EntityManager): Promise<void> {
    em?.getEventManager().registerSubscriber({ afterTransactionCommit: () => this.bump() });
    await this.connect();
  }

  bump(): void {
    this.version += 1;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    this.listening = false;
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.databaseUrl });
    client.on('notification', () => this.bump());
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client));
    this.client = client;
    try {
      await client.connect();
      await client.query(`listen ${PUBLIC_LIST_CHANNEL}`);
    } catch (error) {
      this.lost(client, error);
      return;
    }
    if (this.client !== client) return;
    this.bump();
    this.listening = true;
  }

  private lost(client: pg.Client, error?: unknown): void {
    if (this.client !== client) return;
    this.client = undefined;
    this.listening = false;
    this.bump();
    void client.end().catch(() => undefined);
    if (this.closed) return;
    this.log('public list: change notifications lost, reconnecting', error);
    this.retry = setTimeout(() => void this.connect(), RECONNECT_MS);
  }
}
