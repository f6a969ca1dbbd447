import { createServer, type AddressInfo, type Socket } from 'node:net';

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
 * RCPT TO for an address ('550 …' refuses it for good, '451 …' defers it), or null to accept;
 * `options.data` the reply to the end of a message ('554 5.7.1 …' refuses its content), or null to
 * accept it. It speaks plain SMTP without extensions, one command per line. `onMail` sees each
 * accepted mail (the browser tests' app relays them to its mail catcher).
 */
export async function startSmtpPeer(
  rcpt: (address: string) => string | null = () => null,
  options: {
    port?: number;
    onMail?: (mail: PeerMail) => void;
    data?: (mail: PeerMail) => string | null;
  } = {},
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
        const mail = { from, to, data: data.join('\r\n') };
        data = null;
        to = [];
        const refusal = options.data?.(mail);
        if (refusal) return reply(refusal);
        received.push(mail);
        options.onMail?.(mail);
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
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
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
