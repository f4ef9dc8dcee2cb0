/*
 * The live editing socket: GET /app/collab/:spaceId/:changeRequestId/:pageId upgraded to a
 * WebSocket (the `ws` library, on the HTTP server's `upgrade` event, which Fastify leaves
 * alone). The request is checked before the upgrade (collab.service.ts authorizeCollab); a
 * refusal is an HTTP answer with the GitBook error body, so the socket never opens.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { WebSocketServer, type WebSocket } from 'ws';
import { HttpError } from '../../errors.ts';
import { errorBody } from '../../plugins/errors.ts';
import { COLLAB_LIMITS } from './collab.limits.ts';
import type { CollabHub } from './collab.service.ts';
import { clearSettledDocs } from './collab.settled.ts';
import { onChangeRequestMoved } from '../change-requests/change-requests.events.ts';

/*
 * The service (Yjs, y-prosemirror, the editor's schema) is loaded at the first connection,
 * not at start: a server nobody edits live on never pays for it (docs/performance.md, "Start").
 */
let collabService: Promise<typeof import('./collab.service.ts')> | undefined;
const loadCollabService = () => (collabService ??= import('./collab.service.ts'));

const PATH = /^\/app\/collab\/([A-Za-z0-9_-]{1,64})\/([A-Za-z0-9_-]{1,64})\/([A-Za-z0-9_-]{1,64})$/;
const REASONS: Record<number, string> = { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 429: 'Too Many Requests', 500: 'Internal Server Error' };

function refuse(socket: Duplex, status: number, text: string): void {
  const body = JSON.stringify(errorBody(status, text));
  socket.end(`HTTP/1.1 ${status} ${REASONS[status] ?? 'Error'}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
}

export const collabRoutes = fp(async (app: FastifyInstance) => {
  let hub: CollabHub | undefined;
  const hubOf = async () => {
    const service = await loadCollabService();
    return (hub ??= new service.CollabHub(app.deps, app.log));
  };
  const sockets = new WebSocketServer({ noServer: true, maxPayload: COLLAB_LIMITS.messageBytes, perMessageDeflate: false });
  let requests = 0;

  const upgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(request.url ?? '/', 'http://local');
    const match = PATH.exec(url.pathname);
    if (!match) return refuse(socket, 404, 'Not found');
    const [, spaceId, changeRequestId, pageId] = match as unknown as [string, string, string, string];
    const requestId = `collab-${++requests}`;
    const log = app.log.child({ reqId: requestId });
    loadCollabService()
      .then((service) => service.authorizeCollab(app.deps, { cookie: request.headers.cookie, origin: request.headers.origin, spaceId, changeRequestId, pageId, requestId, log }))
      .then(async (access) => {
        const joinable = await hubOf();
        let handle: Awaited<ReturnType<CollabHub['join']>> | null = null;
        const pending: Uint8Array[] = [];
        sockets.handleUpgrade(request, socket, head, (ws: WebSocket) => {
          const transport = {
            send: (data: Uint8Array) => {
              if (ws.readyState === ws.OPEN) ws.send(data);
            },
            close: (code: number, reason: string) => ws.close(code, reason),
          };
          ws.on('message', (data: Buffer, isBinary: boolean) => {
            if (!isBinary) return ws.close(1003, 'Binary messages only');
            const bytes = new Uint8Array(data);
            if (handle) handle.receive(bytes);
            else pending.push(bytes);
          });
          ws.on('close', () => handle?.leave());
          ws.on('error', () => ws.terminate());
          joinable.join(access, transport).then(
            (joined) => {
              handle = joined;
              if (ws.readyState !== ws.OPEN) return joined.leave();
              for (const bytes of pending.splice(0)) joined.receive(bytes);
            },
            (error: unknown) => ws.close(error instanceof HttpError && error.statusCode === 429 ? 1013 : 1011, error instanceof HttpError ? error.message : 'The document could not be opened'),
          );
        });
      })
      .catch((error: unknown) => {
        if (error instanceof HttpError) return refuse(socket, error.statusCode, error.message);
        log.error({ err: error }, 'live editing connection failed');
        refuse(socket, 500, 'The server could not open live editing');
      });
  };
  app.server.on('upgrade', upgrade);
  // A change request merged or closed on this process: the rows of its live documents that no
  // process holds go now (those still open go when their holder lets them go).
  const { db, dialect, clock } = app.deps;
  const unsubscribe = onChangeRequestMoved(db, (changeRequestId, what) => {
    if (what !== 'status') return;
    clearSettledDocs(db, dialect, clock, changeRequestId).catch((error: unknown) => app.log.warn({ err: error }, 'live editing could not delete the documents of a settled change request'));
  });
  app.addHook('preClose', async () => {
    unsubscribe();
    app.server.off('upgrade', upgrade);
    for (const ws of sockets.clients) ws.close(1001, 'The server is stopping');
    await hub?.stop();
    sockets.close();
  });
});
