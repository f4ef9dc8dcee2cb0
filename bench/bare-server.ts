import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * The yardstick: a bare node:http server that answers every request with the bytes Quire
 * gave for the scenario (same status, headers and body), doing no other work. Started by
 * the harness in its own process with the response file as its argument; reports its port
 * over IPC.
 */

interface ResponseFile {
  status: number;
  headers: [string, string][];
  body: string; // base64
}

const file = process.argv[2];
if (!file || !process.send) {
  console.error('usage: started by bench/harness.ts with a response file and an IPC channel');
  process.exit(2);
}
const spec = JSON.parse(fs.readFileSync(file, 'utf8')) as ResponseFile;
const body = Buffer.from(spec.body, 'base64');
const headers = spec.headers.flat();

const server = http.createServer((_request, response) => {
  response.writeHead(spec.status, headers);
  response.end(body);
});
// Fastify keeps idle connections 72 s; match it so neither side reconnects mid-run.
server.keepAliveTimeout = 72_000;
server.listen(0, '127.0.0.1', () => {
  process.send?.({ port: (server.address() as AddressInfo).port });
});
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
