/*
 * The live document's encoding: Quire's messages over y-protocols, the Y.Doc <-> GitBook
 * document conversion, and the base a live document records to tell whether it is in step
 * with its page (collab.service.ts runs the rooms).
 */
import * as Y from 'yjs';
import * as encoding from 'lib0/encoding';
import * as decoding from 'lib0/decoding';
import { prosemirrorJSONToYXmlFragment, yXmlFragmentToProseMirrorRootNode } from 'y-prosemirror';
import { createHash } from 'node:crypto';
import { newId } from '../../lib/ids.ts';
import { schema } from '../../editor/schema.ts';
import { fromProseMirrorJSON, toProseMirrorJSON } from '../../editor/convert.ts';
import { documentAttrsOf, writeDocumentAttrs } from '../../editor/live-doc.ts';
import type { Document } from '../../content/markdown/types.ts';

/** Message types: y-protocols' sync (0) and awareness (1), then Quire's own. */
export const MESSAGE = { sync: 0, awareness: 1, ack: 3, save: 4, saved: 5, error: 6, generation: 7, reload: 8, notice: 9 } as const;

/** The name of the Y.XmlFragment holding the ProseMirror document (y-prosemirror's default). */
export const FRAGMENT = 'prosemirror';

export const message = (type: number, write: (encoder: encoding.Encoder) => void): Uint8Array => {
  const encoder = encoding.createEncoder();
  encoding.writeVarUint(encoder, type);
  write(encoder);
  return encoding.toUint8Array(encoder);
};

/**
 * What a live document was last in step with, kept in the Y.Doc itself (so it is stored and
 * shared like any edit): `page`, the digest of the page's stored document; `view`, the digest
 * of the live document's content at that moment. A page changed outside live editing (the
 * API, git sync, the tree forms) differs from `page` when the document is next opened; if
 * the live content still equals `view` (nothing typed since), the live document follows the
 * page, so the next save cannot overwrite the change with stale content. `document`, the
 * revision store's hash of that page's document ('' for a page without one), is the base of
 * the merge when the live content was edited since (collab.merge.ts).
 */
export const BASE = 'quire-base';
/** The last merge of a change made outside live editing, as told to members: `merge`, JSON `{ id, text }`. */
export const NOTICE = 'quire-notice';
export const digest = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('base64url');
export const viewDigest = (doc: Y.Doc) => digest(yXmlFragmentToProseMirrorRootNode(doc.getXmlFragment(FRAGMENT), schema).toJSON());

/** A page as the change request stores it: its document and the revision store's hash of it (null for none). */
export interface StoredPage {
  document: Document;
  hash: string | null;
}

/**
 * Records what the live document is in step with (inside the caller's transaction); `view`
 * when the live content is not that page's (merged with unsaved edits): the view the page
 * alone would have.
 */
export function markBase(doc: Y.Doc, page: StoredPage | { document: Document; hash?: undefined }, view = viewDigest(doc)): void {
  const base = doc.getMap<string>(BASE);
  base.set('page', digest(page.document));
  base.set('view', view);
  if (page.hash !== undefined) base.set('document', page.hash ?? '');
}

/** The view digest a live document holding only `document` has (seeded as seedUpdate seeds it). */
export function viewOfDocument(document: Document): string {
  const doc = new Y.Doc();
  try {
    prosemirrorJSONToYXmlFragment(schema, toProseMirrorJSON(document), doc.getXmlFragment(FRAGMENT));
    return viewDigest(doc);
  } finally {
    doc.destroy();
  }
}

/**
 * The update of a page's first state. Seeding happens under the document's lock, once per
 * generation: a generation starts when a document is opened with no stored rows and ends
 * when its rows are deleted (saved and left by everyone). Its id, kept in the Y.Doc, lets a
 * browser that was disconnected meanwhile tell that its document is of an ended generation,
 * whose items must not be merged into the new one.
 */
export function seedUpdate(document: Document, hash?: string | null): Uint8Array {
  const seed = new Y.Doc();
  seed.transact(() => {
    const json = toProseMirrorJSON(document);
    prosemirrorJSONToYXmlFragment(schema, json, seed.getXmlFragment(FRAGMENT));
    writeDocumentAttrs(seed, json);
    markBase(seed, { document, hash });
    seed.getMap<string>(BASE).set('generation', newId(16));
  });
  return Y.encodeStateAsUpdate(seed);
}

/** Whether a live document holds nothing that its page does not (no edit since the last save or follow). */
export function isInStepWithPage(doc: Y.Doc): boolean {
  const base = doc.getMap<string>(BASE);
  return base.has('view') && base.get('view') === viewDigest(doc);
}

/** One client's entry in a y-protocols awareness update: its id and its state's JSON length. */
export function awarenessEntries(update: Uint8Array): Array<{ clientId: number; stateBytes: number; removed: boolean }> {
  const decoder = decoding.createDecoder(update);
  const entries = [];
  for (let count = decoding.readVarUint(decoder); count > 0; count--) {
    const clientId = decoding.readVarUint(decoder);
    decoding.readVarUint(decoder);
    const state = decoding.readVarString(decoder);
    entries.push({ clientId, stateBytes: state.length, removed: state === 'null' });
  }
  return entries;
}

/** The GitBook document of a Y.Doc's current state: its content and the page's own properties (live-doc.ts). */
export function documentOfYDoc(doc: Y.Doc): Document {
  const json = yXmlFragmentToProseMirrorRootNode(doc.getXmlFragment(FRAGMENT), schema).toJSON() as Record<string, unknown>;
  const attrs = documentAttrsOf(doc);
  return fromProseMirrorJSON(attrs ? { ...json, attrs } : json);
}
