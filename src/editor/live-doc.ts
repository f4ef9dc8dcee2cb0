/*
 * The page's own properties in a live document (Yjs). y-prosemirror binds the content of the
 * ProseMirror document to a Y.XmlFragment, not the top node's attributes: the document's open
 * `data` (the page's kept written forms, docs/decisions/markdown.md) and its other properties
 * would be lost on the way through live editing. They travel beside the fragment in a Y.Map,
 * written where the live document is seeded or follows the page, read where it is saved and
 * where a browser starts its editor. Shared by the server (src/modules/collab) and the client.
 */
import type * as Y from 'yjs';

/** The map holding the top node's attributes, as JSON. */
export const DOCUMENT_ATTRS = 'quire-document';

type Json = Record<string, unknown>;

/** Records a ProseMirror document JSON's top attributes (inside the caller's transaction). */
export function writeDocumentAttrs(doc: Y.Doc, json: Json): void {
  const map = doc.getMap<string>(DOCUMENT_ATTRS);
  const value = JSON.stringify(json.attrs ?? {});
  if (map.get('attrs') !== value) map.set('attrs', value);
}

/** The top attributes recorded in a live document; undefined for one seeded before they were. */
export function documentAttrsOf(doc: Y.Doc): Json | undefined {
  const value = doc.getMap<string>(DOCUMENT_ATTRS).get('attrs');
  return value === undefined ? undefined : (JSON.parse(value) as Json);
}
