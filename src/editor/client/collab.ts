/*
 * Editing together in the browser (issue 32, item 4): the page's Y.Doc kept in step with
 * Quire's live editing socket (src/modules/collab) over y-protocols' sync and awareness
 * messages, and y-prosemirror's plugins binding it to the editor (content, others' cursors,
 * an undo that only undoes one's own edits). A small provider of our own rather than
 * y-websocket's: Quire's socket adds acknowledgements and a server-side save.
 */
import * as Y from 'yjs';
import * as syncProtocol from 'y-protocols/sync';
import * as awarenessProtocol from 'y-protocols/awareness';
import * as encoding from 'lib0/encoding';
import * as decoding from 'lib0/decoding';
import { keymap } from 'prosemirror-keymap';
import './collab.css';
import { Plugin, type Command } from 'prosemirror-state';
import type { EditorView } from 'prosemirror-view';
import type { Node as PMNode, Schema } from 'prosemirror-model';
import { digest as sha256 } from 'lib0/hash/sha256';
import { documentAttrsOf } from '../live-doc.ts';
import { redo, undo, yCursorPlugin, ySyncPlugin, ySyncPluginKey, yUndoPlugin, yXmlFragmentToProseMirrorRootNode } from 'y-prosemirror';

/** Message types: as src/modules/collab/collab.service.ts MESSAGE. */
const MESSAGE = { sync: 0, awareness: 1, ack: 3, save: 4, saved: 5, error: 6, generation: 7, reload: 8, notice: 9 } as const;
/** The server's close code for a change request merged or closed meanwhile (collab.service.ts ENDED_CLOSE): no reconnecting. */
const ENDED_CLOSE = 4001;

/** A save refused because the page changed outside live editing since the unsaved edits (the member chooses). */
export class StaleSave extends Error {}
const COLORS = ['#c2410c', '#15803d', '#1d4ed8', '#7e22ce', '#be185d', '#0f766e'];

export interface Collab {
  doc: Y.Doc;
  /** The document as it is now (the editor's first state). */
  initialDoc(): PMNode;
  plugins: Plugin[];
  /** Undo and redo of one's own edits only (y-prosemirror's undo manager). */
  undo: Command;
  redo: Command;
  /**
   * Asks the server to write the merged document to the change request; `replace` when the
   * member was told (StaleSave) that this replaces a change made outside live editing.
   */
  save(replace?: boolean): Promise<void>;
  /** Makes the live document the page's stored version, dropping the unsaved live edits. */
  reload(): Promise<void>;
  /** Updates sent and not yet acknowledged as stored. */
  unacknowledged(): number;
  /**
   * Called when the server marks the live document in step with the page it stored (after a
   * save, a merged one included, or when it follows a change made outside) and this editor's
   * document is exactly that one: what the editor shows is saved.
   */
  onInStep(listener: () => void): void;
  close(): void;
}

const frame = (type: number, write: (encoder: encoding.Encoder) => void): Uint8Array => {
  const encoder = encoding.createEncoder();
  encoding.writeVarUint(encoder, type);
  write(encoder);
  return encoding.toUint8Array(encoder);
};

/**
 * Keeps one's cursor after one's own last character when another member types at the same
 * place. y-prosemirror remembers the cursor before a remote change as a position tied to the
 * character on its right (or the text's end), so a remote insertion at the cursor lands
 * before it and two people typing at one spot interleave letter by letter; tied to the
 * character on its left, each one's words stay whole. Its listener must follow the binding's
 * (which records the selection this one rewrites), so the plugin goes after ySyncPlugin.
 */
function leftCursorPlugin(doc: Y.Doc): Plugin {
  let view: EditorView | null = null;
  const toLeft = (rel: Y.RelativePosition | null): Y.RelativePosition | null => {
    if (!rel || rel.assoc < 0) return rel;
    const at = Y.createAbsolutePositionFromRelativePosition(rel, doc);
    if (!at || !(at.type instanceof Y.XmlText) || at.index === 0) return rel;
    return Y.createRelativePositionFromTypeIndex(at.type, at.index, -1);
  };
  const rewrite = () => {
    const binding = view ? (ySyncPluginKey.getState(view.state) as { binding?: { beforeTransactionSelection: { type: string; anchor: Y.RelativePosition | null; head: Y.RelativePosition | null } | null } } | undefined)?.binding : undefined;
    const selection = binding?.beforeTransactionSelection;
    if (!selection || selection.type !== 'text') return;
    selection.anchor = toLeft(selection.anchor);
    selection.head = toLeft(selection.head);
  };
  return new Plugin({
    // Views are made in plugin order: the binding's listener (added in ySyncPlugin's view) is in first.
    view: (v) => {
      view = v;
      doc.on('beforeAllTransactions', rewrite);
      return {
        destroy: () => {
          doc.off('beforeAllTransactions', rewrite);
          view = null;
        },
      };
    },
  });
}

/** Connects to `url` (the socket's http(s) URL) and resolves once the document is in step. */
export function connectCollab(url: string, schema: Schema, user: { name: string }, onStatus: (text: string) => void): Promise<Collab> {
  const doc = new Y.Doc();
  const fragment = doc.getXmlFragment('prosemirror');
  const awareness = new awarenessProtocol.Awareness(doc);
  awareness.setLocalStateField('user', { name: user.name, color: COLORS[doc.clientID % COLORS.length] });
  const socketUrl = url.replace(/^http/, 'ws');
  let socket: WebSocket | null = null;
  let closed = false;
  let pending = 0;
  let retry = 250;
  const saves: Array<{ resolve: () => void; reject: (error: Error) => void }> = [];
  let synced: (() => void) | null = null;
  /**
   * The server's generation of this document (collab.service.ts seedUpdate), learnt at the
   * first connection; `inStep` is set once a connection's generation matched, and nothing is
   * sent or applied before (a document saved and left by everyone meanwhile starts anew, and
   * this tab's copy must not be merged into it).
   */
  let generation: string | null = null;
  let inStep = false;
  let failed: ((error: Error) => void) | null = null;
  const ready = new Promise<void>((resolve, reject) => {
    synced = resolve;
    failed = reject;
  });

  const send = (data: Uint8Array) => {
    if (inStep && socket?.readyState === WebSocket.OPEN) socket.send(data);
  };

  const open = () => {
    const ws = new WebSocket(socketUrl);
    ws.binaryType = 'arraybuffer';
    socket = ws;
    inStep = false;
    ws.onopen = () => {
      retry = 250;
      pending = 0;
    };
    ws.onmessage = (event) => {
      const decoder = decoding.createDecoder(new Uint8Array(event.data as ArrayBuffer));
      const type = decoding.readVarUint(decoder);
      if (type === MESSAGE.generation) {
        const current = decoding.readVarString(decoder);
        if (generation !== null && current !== generation) {
          closed = true;
          ws.close(1000);
          onStatus('This page was saved and closed while you were away: reload it to edit again');
          return;
        }
        generation = current;
        inStep = true;
        send(frame(MESSAGE.sync, (e) => syncProtocol.writeSyncStep1(e, doc)));
        send(frame(MESSAGE.awareness, (e) => encoding.writeVarUint8Array(e, awarenessProtocol.encodeAwarenessUpdate(awareness, [doc.clientID]))));
        return;
      }
      if (!inStep) return;
      if (type === MESSAGE.sync) {
        const encoder = encoding.createEncoder();
        encoding.writeVarUint(encoder, MESSAGE.sync);
        const kind = syncProtocol.readSyncMessage(decoder, encoder, doc, ws);
        if (encoding.length(encoder) > 1) send(encoding.toUint8Array(encoder));
        if (kind === syncProtocol.messageYjsSyncStep2 && synced) {
          started = true;
          synced();
          synced = null;
          failed = null;
          onStatus('');
        }
      } else if (type === MESSAGE.awareness) {
        awarenessProtocol.applyAwarenessUpdate(awareness, decoding.readVarUint8Array(decoder), ws);
      } else if (type === MESSAGE.ack) {
        pending = Math.max(0, pending - decoding.readVarUint(decoder));
      } else if (type === MESSAGE.saved) {
        const result = JSON.parse(decoding.readVarString(decoder)) as { ok: boolean; stale?: boolean; message?: string };
        const waiter = saves.shift();
        if (result.ok) waiter?.resolve();
        else waiter?.reject(new (result.stale ? StaleSave : Error)(result.message ?? 'Not saved'));
      } else if (type === MESSAGE.error || type === MESSAGE.notice) {
        // A notice follows the save's answer (the editor's "Saved"): a change made outside live
        // editing merged into the live edits, naming the blocks both changed.
        onStatus(decoding.readVarString(decoder));
      }
    };
    ws.onclose = (event) => {
      for (const waiter of saves.splice(0)) waiter.reject(new Error('The connection was lost before the save finished'));
      awarenessProtocol.removeAwarenessStates(awareness, [...awareness.getStates().keys()].filter((id) => id !== doc.clientID), 'connection');
      if (failed && event.code !== 1000) {
        // Never in step: the editor does not start on a document it has not received.
        failed(new Error(event.reason || 'Live editing could not connect'));
        failed = null;
        synced = null;
      }
      if (event.code === ENDED_CLOSE) {
        closed = true;
        onStatus(event.reason);
        return;
      }
      if (closed || event.code === 1008 || event.code === 1009) return;
      onStatus('Reconnecting…');
      setTimeout(open, retry);
      retry = Math.min(retry * 2, 5_000);
    };
  };

  // A merge of a change made outside live editing, made by the server on any process: told
  // here when it arrives (not one merged before this editor started).
  let started = false;
  const notices = doc.getMap<string>('quire-notice');
  notices.observe(() => {
    const raw = notices.get('merge');
    if (started && raw) onStatus((JSON.parse(raw) as { text: string }).text);
  });
  // The server records in `quire-base` the digest of the live content it last saw in step with
  // the stored page (collab.ydoc.ts markBase, viewDigest): the same digest of this copy, taken
  // when the server changes that record, says whether what this editor holds is what was saved.
  const base = doc.getMap<string>('quire-base');
  let inStepListener: (() => void) | null = null;
  const viewDigest = () => {
    const json = JSON.stringify(yXmlFragmentToProseMirrorRootNode(fragment, schema).toJSON());
    let binary = '';
    for (const byte of sha256(new TextEncoder().encode(json))) binary += String.fromCharCode(byte);
    return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  };
  doc.on('afterTransaction', (transaction: Y.Transaction) => {
    if (transaction.local || !inStepListener || !transaction.changed.has(base as unknown as Y.AbstractType<Y.YEvent<any>>)) return;
    if (base.get('view') === viewDigest()) inStepListener();
  });
  doc.on('update', (update: Uint8Array, origin: unknown) => {
    if (origin === socket) return;
    pending += 1;
    send(frame(MESSAGE.sync, (e) => syncProtocol.writeUpdate(e, update)));
  });
  awareness.on('update', ({ added, updated, removed }: { added: number[]; updated: number[]; removed: number[] }, origin: unknown) => {
    if (origin !== 'local') return;
    send(frame(MESSAGE.awareness, (e) => encoding.writeVarUint8Array(e, awarenessProtocol.encodeAwarenessUpdate(awareness, [...added, ...updated, ...removed]))));
  });
  open();

  const ask = (data: Uint8Array) =>
    new Promise<void>((resolve, reject) => {
      if (socket?.readyState !== WebSocket.OPEN) return reject(new Error('Live editing is not connected'));
      saves.push({ resolve, reject });
      send(data);
    });
  const plugins = [ySyncPlugin(fragment), yCursorPlugin(awareness), yUndoPlugin(), keymap({ 'Mod-z': undo, 'Shift-Mod-z': redo, 'Mod-y': redo }), leftCursorPlugin(doc)];
  const collab: Collab = {
    doc,
    initialDoc: () => {
      // The page's own properties (its written forms) are beside the fragment (live-doc.ts).
      const node = yXmlFragmentToProseMirrorRootNode(fragment, schema);
      const attrs = documentAttrsOf(doc);
      return attrs ? schema.topNodeType.create(attrs, node.content) : node;
    },
    plugins,
    // Both answered by a `saved` message, in order.
    save: (replace = false) => ask(frame(MESSAGE.save, (e) => replace && encoding.writeVarString(e, JSON.stringify({ replace: true })))),
    reload: () => ask(frame(MESSAGE.reload, () => undefined)),
    undo,
    redo,
    unacknowledged: () => pending,
    onInStep: (listener) => (inStepListener = listener),
    close: () => {
      closed = true;
      socket?.close(1000);
    },
  };
  return ready.then(() => collab);
}
