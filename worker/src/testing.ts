import type { S3Client } from '@aws-sdk/client-s3';
import {
  createS3Client,
  EditionEvents,
  type ErasureJournalStore,
  type EventSource,
} from '@schlosstreffen/api/core';
import type { TestContext } from '@schlosstreffen/api/testing';
import { createMailer, type Mailer } from './adapters/mailer.js';
import { startSmtpPeer, type PeerMail, type SmtpPeer } from './smtp-peer.js';
import { startWorkers, type RunningWorkers } from './worker.js';

/** Test harness: the worker on a test context's services, under its Redis prefix. */

const TEST_SENDER = 'Schlosstreffen <noreply@schlosstreffen.test>';

/** A mailer that delivers to the test run's mail catcher. */
export const createTestMailer = (t: TestContext): Mailer => createMailer(t.services.smtpUrl, TEST_SENDER);

/** The editions of the test's database, each described by the test's event (zones, dates, deadlines). */
function describedBy(editions: EventSource, event: TestContext['config']['event']): EventSource {
  return {
    at: async (at) => ({ ...event, edition: (await editions.at(at)).edition }),
    of: async (id) => ({ ...event, edition: (await editions.of(id)).edition }),
    ofYear: async (year) => ({ ...event, edition: (await editions.ofYear(year)).edition }),
  };
}

export function startTestWorkers(
  t: TestContext,
  deps: {
    mailer: Mailer;
    s3?: S3Client;
    event?: TestContext['config']['event'];
    /** Where erasures are journaled (none: the entries are marked stored without a copy). */
    journal?: ErasureJournalStore;
  },
): RunningWorkers {
  return startWorkers({
    em: t.orm.em,
    redis: t.services.redisUrl,
    mailer: deps.mailer,
    s3: deps.s3 ?? createS3Client(t.config.s3),
    bucket: t.config.s3.bucket,
    secret: t.config.sessionSecret,
    publicUrl: t.config.publicUrl,
    // A fixed event where the test names one; else the editions of the test's database.
    events: deps.event
      ? describedBy(new EditionEvents(t.orm.em, 0), deps.event)
      : new EditionEvents(t.orm.em, 0),
    retention: t.config.retention,
    concurrency: 2,
    redisPrefix: t.prefix,
    journal: deps.journal,
  });
}

export { startSmtpPeer, type PeerMail, type SmtpPeer } from './smtp-peer.js';

/** The test context's workers sending over SMTP to a test peer (`rcpt` and `data` as for startSmtpPeer). */
export interface PeerWorkers {
  peer: SmtpPeer;
  mailer: Mailer;
  running: RunningWorkers;
  close(): Promise<void>;
}

export async function startWorkersWithPeer(
  t: TestContext,
  rcpt?: (address: string) => string | null,
  data?: (mail: PeerMail) => string | null,
): Promise<PeerWorkers> {
  const peer = await startSmtpPeer(rcpt, { data });
  const mailer = createMailer(peer.url, TEST_SENDER);
  const running = startTestWorkers(t, { mailer });
  return {
    peer,
    mailer,
    running,
    close: async () => {
      await running.close();
      mailer.close();
      await peer.close();
    },
  };
}
