/*
 * Merging a change made to a page outside live editing (the API, git sync, the tree forms)
 * into the live document's unsaved edits (docs/decisions/editor.md, "Collaboration"): a
 * three-way merge by top-level block, keyed by the blocks' node keys. `base` is the page as
 * the live document was last in step with it, `live` the live document, `outside` the page as
 * the change request stores it now. Each block follows the change-request merge's rule
 * (threeWay, src/content/merge): a block changed on one side only takes that side, and one
 * changed on both sides differently is a conflict, where the live side wins and the member is
 * told. Pure: collab.service.ts applies the result to the Y.Doc.
 */
import { reorderedItems } from '../../content/merge/text.ts';
import { same, threeWay } from '../../content/merge/index.ts';
import type { Block, Document } from '../../content/markdown/types.ts';

/** A block both sides changed differently (the live side's version was kept). */
export interface BlockConflict {
  key: string;
  /** The block's type and first words, as the member sees it. */
  label: string;
  /** `changed`: both changed it; `deleted-live`: deleted live, changed outside; `deleted-outside`: the reverse. */
  kind: 'changed' | 'deleted-live' | 'deleted-outside';
}

export interface LiveMerge {
  document: Document;
  conflicts: BlockConflict[];
}

export const EMPTY_DOCUMENT: Document = { object: 'document', data: {}, nodes: [] };

/** What members are told of a merge of a change made outside live editing. */
export function mergeNotice(conflicts: BlockConflict[]): string {
  const merged = 'A change made to this page outside live editing was merged into the live edits';
  if (conflicts.length === 0) return merged;
  const shown = conflicts.slice(0, 5).map((c) => c.label).join(', ');
  const more = conflicts.length > 5 ? ` and ${conflicts.length - 5} more` : '';
  return `${merged}; ${conflicts.length === 1 ? 'one block was' : `${conflicts.length} blocks were`} changed on both sides, and the live version was kept: ${shown}${more}`;
}

/** Kept-form lists of the document's `data` (written-form.ts), merged as a union: each entry applies only where its blocks still are. */
const FORM_LISTS = ['writtenForms', 'writtenSeparators'] as const;

const keyOf = (block: Block | undefined): string | undefined => {
  const key = (block as { key?: unknown } | undefined)?.key;
  return typeof key === 'string' ? key : undefined;
};

/** The text of a block, its leaves joined. */
function textOf(value: unknown): string {
  if (Array.isArray(value)) return value.map(textOf).join('');
  if (!value || typeof value !== 'object') return '';
  const node = value as { object?: string; leaves?: { text?: string }[]; nodes?: unknown; fragments?: unknown };
  if (node.object === 'text' && Array.isArray(node.leaves)) return node.leaves.map((l) => l.text ?? '').join('');
  return `${textOf(node.nodes)}${node.object === 'block' ? ' ' : ''}${textOf(node.fragments)}`;
}

/** How a block is named to the member: its type and its first words. */
export function blockLabel(block: Block): string {
  const text = textOf(block).replace(/\s+/g, ' ').trim();
  const words = text.length > 40 ? `${text.slice(0, 40).replace(/\s\S*$/, '')}…` : text;
  return words ? `${block.type} “${words}”` : block.type;
}

/**
 * Merges what `outside` changed since `base` into `live`. The order is the live document's,
 * with the blocks the outside change added or moved (and the live side did not move) placed
 * after the block that precedes them there, as the change-request merge places pages.
 */
export function mergeLiveDocument(base: Document, live: Document, outside: Document): LiveMerge {
  const baseBlocks = new Map<string, Block>();
  for (const block of base.nodes) {
    const key = keyOf(block);
    if (key !== undefined) baseBlocks.set(key, block);
  }
  const outsideBlocks = new Map<string, Block>();
  for (const block of outside.nodes) {
    const key = keyOf(block);
    if (key !== undefined && !outsideBlocks.has(key)) outsideBlocks.set(key, block);
  }
  // Live blocks by identity: their key, or (a block typed live that has none yet, a key met
  // twice, or a key the outside change gave to another new block) a name of its own.
  const liveIds: string[] = [];
  const liveBlocks = new Map<string, Block>();
  live.nodes.forEach((block, index) => {
    let key = keyOf(block);
    if (key !== undefined && !baseBlocks.has(key) && outsideBlocks.has(key) && !same(block, outsideBlocks.get(key))) {
      // Added on both sides under one key, as different blocks: both are kept, the live one
      // without its key (the server gives it a new one when it is saved).
      const { key: _dropped, ...rest } = block as Block & { key?: string };
      block = rest as Block;
      key = undefined;
    }
    const id = key === undefined || liveBlocks.has(key) ? `\u0000live${index}` : key;
    liveIds.push(id);
    liveBlocks.set(id, block);
  });

  const conflicts: BlockConflict[] = [];
  const merged = new Map<string, Block | undefined>();
  for (const id of new Set([...liveIds, ...outsideBlocks.keys(), ...baseBlocks.keys()])) {
    const [b, o, t] = [baseBlocks.get(id), liveBlocks.get(id), outsideBlocks.get(id)];
    const side = threeWay(b, o, t);
    merged.set(id, side === 'theirs' ? t : o);
    if (side === 'conflict') {
      const shown = (o ?? t ?? b)!;
      conflicts.push({ key: id, label: blockLabel(shown), kind: !o ? 'deleted-live' : !t ? 'deleted-outside' : 'changed' });
    }
  }

  // The order: the live one, less what is gone, plus what the outside change added or moved.
  const order = liveIds.filter((id) => merged.get(id) !== undefined);
  const baseIds = base.nodes.map(keyOf).filter((k): k is string => k !== undefined);
  const outsideIds = [...outsideBlocks.keys()];
  const movedOutside = reorderedItems(baseIds, outsideIds);
  const movedLive = reorderedItems(baseIds, liveIds);
  outsideIds.forEach((id, index) => {
    if (merged.get(id) === undefined) return;
    const at = order.indexOf(id);
    const added = at < 0;
    if (!added && !(movedOutside.has(id) && !movedLive.has(id))) return;
    if (!added) order.splice(at, 1);
    // After the nearest block that precedes it outside and is in the result; first if none.
    let place = 0;
    for (let k = index - 1; k >= 0; k--) {
      const before = order.indexOf(outsideIds[k]);
      if (before >= 0) {
        place = before + 1;
        break;
      }
    }
    order.splice(place, 0, id);
  });

  return { document: { ...live, data: mergeData(base.data, live.data, outside.data), nodes: order.map((id) => merged.get(id)!) }, conflicts };
}

/**
 * The document's own `data`, key by key with the same rule (the live side's where both
 * changed a key); its kept written forms as the union of both sides' (the normal form keeps
 * only those whose blocks are still there, so what the outside change wrote keeps its form).
 */
function mergeData(base: Document['data'], live: Document['data'], outside: Document['data']): Document['data'] {
  const [b, o, t] = [base ?? {}, live ?? {}, outside ?? {}] as Record<string, unknown>[];
  const data: Record<string, unknown> = {};
  for (const name of new Set([...Object.keys(o), ...Object.keys(t)])) {
    if ((FORM_LISTS as readonly string[]).includes(name)) continue;
    const value = threeWay(b[name], o[name], t[name]) === 'theirs' ? t[name] : o[name];
    if (value !== undefined) data[name] = value;
  }
  for (const name of FORM_LISTS) {
    // One entry per run of blocks: the outside one where only the outside change touched the list.
    const sides = threeWay(b[name], o[name], t[name]) === 'theirs' ? [t[name], o[name]] : [o[name], t[name]];
    const union = new Map<string, unknown>();
    for (const entry of (sides.filter(Array.isArray) as unknown[][]).flat()) {
      const run = entry && typeof entry === 'object' ? `${String((entry as { nodes?: unknown }).nodes)}:${String((entry as { blocks?: unknown }).blocks)}` : JSON.stringify(entry);
      if (!union.has(run)) union.set(run, entry);
    }
    if (union.size > 0) data[name] = [...union.values()];
  }
  return data as Document['data'];
}
