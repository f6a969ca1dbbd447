import { createServer, type AddressInfo, type Socket } from 'node:net';
import type { S3Client } from '@aws-sdk/client-s3';
import { createS3Client, EditionEvents, type EventSource } from '@schlosstreffen/api/core';
import type { TestContext } from '@schlosstreffen/api/testing';
import { createMailer, type Mailer } from './adapters/mailer.js';
import { startWorkers, type RunningWorkers } from './worker.js';

/** Test harness: the worker on a test context's services, under its Redis prefix. */

/** A mailer that delivers to the test run's mail catcher. */
export const createTestMailer = (t: TestContext): Mailer =>
  createMailer(t.services.smtpUrl, 'Schlosstreffen <noreply@schlosstreffen.test>');

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
  deps: { mailer: Mailer; s3?: S3Client; event?: TestContext['config']['event'] },
): RunningWorkers {
  return startWorkers({
    em: t.orm.em,
    redisUrl: t.services.redisUrl,
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
    log: () => undefined,
  });
}

/** A mail an SMTP test peer accepted. */
export interface PeerMail {
  from: string;
  to: string[];
  /** The raw message (headers and body). */
  data: string;
}

export interface SmtpPeer {
  url: string;
  /** Every mail accepted, in order. */
  received: PeerMail[];
  close(): Promise<void>;
}

/**
 * A small SMTP server for tests of what a receiving server answers: `rcpt` returns the reply to
 * RCPT TO for an address ('550 …' refuses it for good, '451 …' defers it), or null to accept.
 * It speaks plain SMTP without extensions, one command per line.
 */
export async function startSmtpPeer(
  rcpt: (address: string) => string | null = () => null,
): Promise<SmtpPeer> {
  const received: PeerMail[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let buffer = '';
    let from = '';
    let to: string[] = [];
    let data: string[] | null = null;
    const reply = (line: string) => socket.write(`${line}\r\n`);
    const command = (line: string) => {
      if (data) {
        if (line !== '.') return void data.push(line.startsWith('..') ? line.slice(1) : line);
        received.push({ from, to, data: data.join('\r\n') });
        data = null;
        to = [];
        return reply(`250 2.0.0 OK queued as ${received.length}`);
      }
      const verb = line.slice(0, 4).toUpperCase();
      const address = /<([^>]*)>/.exec(line)?.[1]?.toLowerCase() ?? '';
      if (verb === 'EHLO' || verb === 'HELO') return reply('250 peer.test');
      if (verb === 'MAIL') {
        [from, to] = [address, []];
        return reply('250 2.1.0 OK');
      }
      if (verb === 'RCPT') {
        const answer = rcpt(address);
        if (answer) return reply(answer);
        to.push(address);
        return reply('250 2.1.5 OK');
      }
      if (verb === 'DATA') {
        if (!to.length) return reply('503 5.5.1 No valid recipients');
        data = [];
        return reply('354 End data with <CR><LF>.<CR><LF>');
      }
      if (verb === 'RSET') {
        [from, to] = ['', []];
        return reply('250 2.0.0 OK');
      }
      if (verb === 'NOOP') return reply('250 2.0.0 OK');
      if (verb === 'QUIT') {
        reply('221 2.0.0 Bye');
        return void socket.end();
      }
      return reply('502 5.5.2 Command not implemented');
    };
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      let end: number;
      while ((end = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        command(line);
      }
    });
    reply('220 peer.test ESMTP');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
