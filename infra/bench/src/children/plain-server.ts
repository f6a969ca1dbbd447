/**
 * R1's, R9's and R10's reference: plain node:http answering every request with the bytes and
 * headers it was sent (the api's answer as fetched once). No framework, no database.
 */
import http from 'node:http';

interface Setup {
  port: number;
  headers: Record<string, string | string[]>;
  body: string;
}

process.once('message', (message) => {
  const { port, headers, body: base64 } = message as Setup;
  const body = Buffer.from(base64, 'base64');
  const server = http.createServer((_req, res) => {
    res.writeHead(200, headers);
    res.end(body);
  });
  server.listen(port, '127.0.0.1', () => process.send?.({ ready: true }));
});
