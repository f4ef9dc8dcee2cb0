import WebSocket from 'ws';
import * as Y from 'yjs';
import * as syncProtocol from 'y-protocols/sync';
import * as awarenessProtocol from 'y-protocols/awareness';
import * as encoding from 'lib0/encoding';
import * as decoding from 'lib0/decoding';
import { FRAGMENT, MESSAGE, documentOfYDoc } from '../src/modules/collab/collab.service.ts';

/*
 * A live editing client for tests (src/modules/collab): a Node WebSocket speaking y-protocols
 * and Quire's messages as the browser's collab.ts does.
 */

/** A live editing client: a Y.Doc kept in step with one socket. */
export class Client {
  readonly doc = new Y.Doc();
  /** Others' cursors as this client sees them (its own state is set by `announce`). */
  readonly awareness = new awarenessProtocol.Awareness(this.doc);
  generation: string | null = null;
  acks = 0;
  synced: Promise<void>;
  saved: Array<{ ok: boolean; stale?: boolean; message?: string; merged?: boolean; conflicts?: Array<{ key: string; label: string; kind: string }> }> = [];
  /** What the server told this client (a merge of a change made outside live editing). */
  notices: string[] = [];
  closed: Promise<{ code: number; reason: string }>;
  constructor(readonly ws: WebSocket) {
    let onSynced!: () => void;
    this.synced = new Promise((resolve) => (onSynced = resolve));
    this.awareness.setLocalState(null);
    this.closed = new Promise((resolve) =>
      ws.on('close', (code, reason) => {
        this.awareness.destroy();
        resolve({ code, reason: reason.toString() });
      }),
    );
    ws.on('open', () => this.send(MESSAGE.sync, (e) => syncProtocol.writeSyncStep1(e, this.doc)));
    ws.on('message', (data: Buffer) => {
      const decoder = decoding.createDecoder(new Uint8Array(data));
      const type = decoding.readVarUint(decoder);
      if (type === MESSAGE.sync) {
        const encoder = encoding.createEncoder();
        encoding.writeVarUint(encoder, MESSAGE.sync);
        const kind = syncProtocol.readSyncMessage(decoder, encoder, this.doc, this);
        if (encoding.length(encoder) > 1) ws.send(encoding.toUint8Array(encoder));
        if (kind === syncProtocol.messageYjsSyncStep2) onSynced();
      } else if (type === MESSAGE.awareness) awarenessProtocol.applyAwarenessUpdate(this.awareness, decoding.readVarUint8Array(decoder), 'remote');
      else if (type === MESSAGE.generation) this.generation = decoding.readVarString(decoder);
      else if (type === MESSAGE.ack) this.acks += decoding.readVarUint(decoder);
      else if (type === MESSAGE.saved) this.saved.push(JSON.parse(decoding.readVarString(decoder)));
      else if (type === MESSAGE.notice) this.notices.push(decoding.readVarString(decoder));
    });
    this.doc.on('update', (update: Uint8Array, origin: unknown) => {
      if (origin !== this) this.send(MESSAGE.sync, (e) => syncProtocol.writeUpdate(e, update));
    });
  }
  send(type: number, write: (e: encoding.Encoder) => void) {
    const encoder = encoding.createEncoder();
    encoding.writeVarUint(encoder, type);
    write(encoder);
    this.ws.send(encoding.toUint8Array(encoder));
  }
  /** Sets this client's awareness state (a cursor, a name) and sends it, as the browser does. */
  announce(state: Record<string, unknown>, clientId = this.doc.clientID) {
    const awareness = clientId === this.doc.clientID ? this.awareness : new awarenessProtocol.Awareness(new Y.Doc({ guid: 'spoof' }));
    if (clientId !== this.doc.clientID) {
      awareness.doc.clientID = clientId;
      awareness.clientID = clientId;
    }
    awareness.setLocalState(state);
    this.send(MESSAGE.awareness, (e) => encoding.writeVarUint8Array(e, awarenessProtocol.encodeAwarenessUpdate(awareness, [clientId])));
    if (awareness !== this.awareness) awareness.destroy();
  }
  /** The name in another client's awareness state, as this client sees it. */
  nameOf(clientId: number): string | undefined {
    return (this.awareness.getStates().get(clientId) as { user?: { name?: string } } | undefined)?.user?.name;
  }
  /** Types at the start of a paragraph (the first one unless told). */
  type(text: string, block = 0) {
    const paragraph = this.doc.getXmlFragment(FRAGMENT).get(block) as Y.XmlElement;
    (paragraph.get(0) as Y.XmlText).insert(0, text);
  }
  /** The document's text (its leaves, joined). */
  text(): string {
    return textOf(documentOfYDoc(this.doc));
  }
}

export const textOf = (document: unknown) => [...JSON.stringify(document).matchAll(/"text":"((?:[^"\\]|\\.)*)"/g)].map((m) => JSON.parse(`"${m[1]}"`)).join('');

export const until = async (check: () => boolean | Promise<boolean>, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

